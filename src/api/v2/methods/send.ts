import type { V2Method } from './types.ts';

export const sendMethods: V2Method[] = [];
