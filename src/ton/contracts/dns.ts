// TON DNS (.ton collection and items, TEP-62 + TEP-81) opcodes, shared by the devnet's DNS wrappers and the
// indexer's body readers (contracts.md §5). An item is an NFT: transfer, ownershipAssigned, excesses and the
// static-data pair are NFT_OP's numbers.
export const DNS_OP = {
  /** The registration: op 0 followed by the label as a text comment. */
  register: 0x00000000,
  fillUp: 0x370fec51,
  changeDnsRecord: 0x4eb1f0f9,
  releaseBalance: 0x4ed14b65,
  outbidNotification: 0x557cea20,
  processGovernanceDecision: 0x44beae41,
  editContent: 0x1a0b9d51,
  transfer: 0x5fcc3d14,
  ownershipAssigned: 0x05138d91,
  excesses: 0xd53276db,
  getStaticData: 0x2fcb26a2,
  reportStaticData: 0x8b771735,
} as const;
