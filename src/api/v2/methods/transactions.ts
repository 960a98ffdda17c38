import type { V2Method } from './types.ts';

export const transactionMethods: V2Method[] = [];
