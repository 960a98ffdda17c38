// Events from messages (issue 9): candidate transfer/burn/mint events of a transaction, and the TransactionInput
// adapters (chain view, stored rows). The body parsers they read with are in src/ton/contracts/.
export { eventsOf } from './events-of.ts';
export { type StoredRow, transactionInput, transactionInputFromRows } from './transaction-input.ts';
