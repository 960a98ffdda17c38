// The shape every family detector has: the getter whose id selects it (the cheap filter on the code's method
// dictionary), and a detect function that runs its getters and cross-checks, giving a row or null.
import type { AccountInput, DetectContext, Detected, DetectedBase } from '../types.ts';
import type { GetterRunner } from './getter.ts';

export interface FamilyEnv {
  ctx: DetectContext;
  getters: GetterRunner;
  /** Whether the account's code has the get-method `name`. */
  has(name: string): boolean;
}

export interface Family {
  /** The get-method that selects this family (ton-index-worker runs it first and checks its result types). */
  getter: string;
  detect(account: AccountInput, base: DetectedBase, env: FamilyEnv): Promise<Detected | null>;
}
