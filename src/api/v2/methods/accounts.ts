import type { V2Method } from './types.ts';

export const accountMethods: V2Method[] = [];
