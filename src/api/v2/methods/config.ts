import type { V2Method } from './types.ts';

export const configMethods: V2Method[] = [];
