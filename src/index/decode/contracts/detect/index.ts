// Interface detection (issue 9): which contract family an account is, and its decoded state.
export { createDetectCache, type DetectCache } from './cache.ts';
export { detectAccounts } from './detect-accounts.ts';
export { DETECT_GAS_LIMIT } from './getter.ts';
