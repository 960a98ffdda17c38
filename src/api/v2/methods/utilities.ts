import type { V2Method } from './types.ts';

export const utilityMethods: V2Method[] = [];
