// NFT (TEP-62), royalty (TEP-66), editable and SBT (TEP-85) opcodes, shared by the devnet's NFT wrappers and the
// indexer's body readers (contracts.md §4.1). deployItem, batchDeploy, changeOwner and changeContent are the
// reference collection's.
export const NFT_OP = {
  transfer: 0x5fcc3d14,
  ownershipAssigned: 0x05138d91,
  excesses: 0xd53276db,
  getStaticData: 0x2fcb26a2,
  reportStaticData: 0x8b771735,
  deployItem: 0x00000001,
  batchDeploy: 0x00000002,
  changeOwner: 0x00000003,
  changeContent: 0x00000004,
  getRoyaltyParams: 0x693d3950,
  reportRoyaltyParams: 0xa8cb00ad,
  editContent: 0x1a0b9d51,
  transferEditorship: 0x1c04412a,
  editorshipAssigned: 0x511a4463,
  proveOwnership: 0x04ded148,
  ownershipProof: 0x0524c7ae,
  requestOwner: 0xd0c3bfea,
  ownerInfo: 0x0dd607e3,
  destroy: 0x1f04537a,
  revoke: 0x6f89f5e3,
  takeExcess: 0xd136d3b3,
  ownershipProofBounced: 0xc18e86d2,
} as const;
