// Events from messages (issue 9): body parsers for every contract family, candidate transfer/burn/mint events of a
// transaction, and the TransactionInput adapters (chain view, stored rows).
export type { BodyParser, ParsedBody, QueryOnly } from './body-parser.ts';
export * from './dns.ts';
export { eventsOf } from './events-of.ts';
export * from './jetton.ts';
export {
  type KnownBody,
  type KnownBodyType,
  type KnownExternalBody,
  type KnownOpcodeBody,
  knownOpcodeName,
  type ParseKnownBodyOptions,
  parseKnownBody,
} from './known-body.ts';
export { type AirdropItem, airdropItemOf, loadAirdropItem } from './mintless.ts';
export * from './multisig.ts';
export * from './nft.ts';
export { type EitherCell, payloadCell } from './reader.ts';
export { type StoredRow, transactionInput, transactionInputFromRows } from './transaction-input.ts';
export * from './vesting.ts';
export * from './wallet.ts';
