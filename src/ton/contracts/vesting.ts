// Vesting wallet (ton-blockchain/vesting-contract) opcodes, shared by the devnet's vesting wrapper and the
// indexer's body readers (contracts.md §7.2).
export const VESTING_OP = {
  send: 0xa7733acd,
  sendResponse: 0xf7733acd,
  addWhitelist: 0x7258a69b,
  addWhitelistResponse: 0xf258a69b,
} as const;
