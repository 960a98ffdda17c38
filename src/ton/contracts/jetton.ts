// Jetton (TEP-74, TEP-89) opcodes, shared by the devnet's jetton wrappers and the indexer's body readers
// (contracts.md §2.2). The v1 reference minter's admin ops (mint#00000015, change_admin#00000003,
// change_content#00000004) carry the V1 suffix; mint, changeAdmin and the ops after them are the v2 / governed /
// mintless minters' (the stablecoin's interface).
export const JETTON_OP = {
  transfer: 0x0f8a7ea5,
  internalTransfer: 0x178d4519,
  transferNotification: 0x7362d09c,
  excesses: 0xd53276db,
  burn: 0x595f07bc,
  burnNotification: 0x7bdd97de,
  provideWalletAddress: 0x2c76b973,
  takeWalletAddress: 0xd1735400,
  mintV1: 0x00000015,
  changeAdminV1: 0x00000003,
  changeContentV1: 0x00000004,
  mint: 0x642b7d07,
  changeAdmin: 0x6501f354,
  claimAdmin: 0xfb88e119,
  dropAdmin: 0x7431f221,
  changeMetadataUri: 0xcb862902,
  upgrade: 0x2508d66a,
  topUp: 0xd372158c,
  callTo: 0x235caf52,
  setStatus: 0xeed236d3,
  merkleAirdropClaim: 0x0df602d6,
} as const;
