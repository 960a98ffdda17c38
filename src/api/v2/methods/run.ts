import type { V2Method } from './types.ts';

export const runMethods: V2Method[] = [];
