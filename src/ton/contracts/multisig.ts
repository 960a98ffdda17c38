// Multisig v2 (multisig-contract-v2) opcodes and order action tags, shared by the devnet's multisig wrappers and
// the indexer's body readers (contracts.md §6). sendMessage and updateMultisigParam are the tags of an order's
// actions (the first 32 bits of each action cell), not message opcodes.
export const MULTISIG_OP = {
  newOrder: 0xf718510f,
  execute: 0x75097f5d,
  executeInternal: 0xa32c59bf,
  init: 0x9c73fba2,
  approve: 0xa762230f,
  approveAccepted: 0x82609bf6,
  approveRejected: 0xafaf283e,
  sendMessage: 0xf1381e5b,
  updateMultisigParam: 0x1d0cfbd3,
} as const;
