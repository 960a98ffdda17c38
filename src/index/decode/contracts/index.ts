// Contract decoders (issue 9): interface detection, events, rows. Pure apart from the TVM calls.

export { createDetectCache, type DetectCache, detectAccounts } from './detect/index.ts';
export { eventsOf, transactionInput } from './events/index.ts';
export * from './types.ts';
export { type ContractsEnv, decodeUnitContracts, type UnitContractRows, type UnitContractsInput } from './unit.ts';
