// Every v2 method, by group; each group owns one file.
import { accountMethods } from './accounts.ts';
import { blockMethods } from './blocks.ts';
import { configMethods } from './config.ts';
import { runMethods } from './run.ts';
import { sendMethods } from './send.ts';
import { transactionMethods } from './transactions.ts';
import type { V2Method } from './types.ts';
import { utilityMethods } from './utilities.ts';

export const v2Methods: V2Method[] = [
  ...accountMethods,
  ...blockMethods,
  ...transactionMethods,
  ...sendMethods,
  ...runMethods,
  ...utilityMethods,
  ...configMethods,
];
