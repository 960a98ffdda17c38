// Wallets by code hash (contracts.md §1.2, §8): toncenter names a wallet only by the exact hash of its code. One
// table for v2's getWalletInformation (src/ton/wallet/known-codes.ts), the indexer's wallet decoding
// (src/index/decode/contracts/wallets.ts) and v3's interface names (src/api/v3/interfaces.ts).
// STANDARD_WALLET_CODES are the standard wallets (../shared/vectors/code_hashes.json lists the hashes with their
// provenance; a test recomputes them from our own wallet code cells); OTHER_WALLET_CODES the other wallet-like codes
// of code_hashes.json (highload v1 and v2r1, the code behind the v5 beta library, the preprocessed v2, the lockup
// and vesting wallets). `type` is the interface name toncenter v3 reports (v3-api.md Appendix B, address_book
// interfaces), `v2Type` the wallet_type string of toncenter v2 getWalletInformation (v2-api.md §8; null for the codes
// toncenter does not parse as user wallets). Data layouts (contracts.md §1.2, §7.1, §8.1):
//   seqno      v1, v2:                     seqno:uint32 …
//   seqno_id   v3, v4, lockup, vesting:    seqno:uint32 wallet_id:uint32 …
//   v5         v5 beta, v5r1:              <1 bit> seqno:uint32 wallet_id:uint32 … (toncenter applies the v5r1
//                                          layout to v5 beta too)
//   highload_v2                            subwallet_id:uint32 last_cleaned:uint64 public_key:uint256 …
//   highload_v3                            public_key:uint256 subwallet_id:uint32 …
//   none       layouts not checked here:   named only

export type WalletLayout = 'seqno' | 'seqno_id' | 'v5' | 'highload_v2' | 'highload_v3' | 'none';

export interface WalletCode {
  /** Code cell representation hash, hex. */
  hash: string;
  /** The interface name toncenter v3 reports (address_book interfaces). */
  type: string;
  /** getWalletInformation's wallet_type; null for the codes toncenter does not parse as user wallets. */
  v2Type: string | null;
  layout: WalletLayout;
}

/** The standard wallet codes (v1r1 … v5r1, highload v2, v2r2 and v3r1): src/ton/wallet's known codes. */
export const STANDARD_WALLET_CODES: readonly (WalletCode & { layout: Exclude<WalletLayout, 'none'> })[] = [
  {
    hash: 'a0cfc2c48aee16a271f2cfc0b7382d81756cecb1017d077faaab3bb602f6868c',
    type: 'wallet_v1r1',
    v2Type: 'wallet v1 r1',
    layout: 'seqno',
  },
  {
    hash: 'd4902fcc9fad74698fa8e353220a68da0dcf72e32bcb2eb9ee04217c17d3062c',
    type: 'wallet_v1r2',
    v2Type: 'wallet v1 r2',
    layout: 'seqno',
  },
  {
    hash: '587cc789eff1c84f46ec3797e45fc809a14ff5ae24f1e0c7a6a99cc9dc9061ff',
    type: 'wallet_v1r3',
    v2Type: 'wallet v1 r3',
    layout: 'seqno',
  },
  {
    hash: '5c9a5e68c108e18721a07c42f9956bfb39ad77ec6d624b60c576ec88eee65329',
    type: 'wallet_v2r1',
    v2Type: 'wallet v2 r1',
    layout: 'seqno',
  },
  {
    hash: 'fe9530d3243853083ef2ef0b4c2908c0abf6fa1c31ea243aacaa5bf8c7d753f1',
    type: 'wallet_v2r2',
    v2Type: 'wallet v2 r2',
    layout: 'seqno',
  },
  {
    hash: 'b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581',
    type: 'wallet_v3r1',
    v2Type: 'wallet v3 r1',
    layout: 'seqno_id',
  },
  {
    hash: '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599',
    type: 'wallet_v3r2',
    v2Type: 'wallet v3 r2',
    layout: 'seqno_id',
  },
  {
    hash: '64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d',
    type: 'wallet_v4r1',
    v2Type: 'wallet v4 r1',
    layout: 'seqno_id',
  },
  {
    hash: 'feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0',
    type: 'wallet_v4r2',
    v2Type: 'wallet v4 r2',
    layout: 'seqno_id',
  },
  {
    hash: 'f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93',
    type: 'wallet_v5_beta',
    v2Type: 'wallet v5 beta',
    layout: 'v5',
  },
  {
    hash: '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f',
    type: 'wallet_v5r1',
    v2Type: 'wallet v5 r1',
    layout: 'v5',
  },
  {
    hash: '9494d1cc8edf12f05671a1a9ba09921096eb50811e1924ec65c3c629fbb80812',
    type: 'wallet_highload_v2',
    v2Type: null,
    layout: 'highload_v2',
  },
  {
    hash: '203dd4f358adb49993129aa925cac39916b68a0e4f78d26e8f2c2b69eafa5679',
    type: 'wallet_highload_v2r2',
    v2Type: null,
    layout: 'highload_v2',
  },
  {
    hash: '11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525',
    type: 'wallet_highload_v3r1',
    v2Type: null,
    layout: 'highload_v3',
  },
];

const OTHER_WALLET_CODES: readonly WalletCode[] = [
  {
    hash: 'e4cf3b2f4c6d6a61ea0f2b5447d266785b26af3637db2deee6bcd1aa826f3412',
    type: 'wallet_v5_beta',
    v2Type: null,
    layout: 'v5',
  },
  {
    hash: 'd8cdbbb79f2c5caa677ac450770be0351be21e1250486de85cc52aa33dd16484',
    type: 'wallet_highload_v1r1',
    v2Type: null,
    layout: 'none',
  },
  {
    hash: '0dceed21269d66013e95b19fbb5c55a6f01adad40837baa8e521cde3a02aa46c',
    type: 'wallet_highload_v1r2',
    v2Type: null,
    layout: 'none',
  },
  {
    hash: '8ceb45b3cd4b5cc60eaae1c13b9c092392677fe536b2e9b2d801b62eff931fe1',
    type: 'wallet_highload_v2r1',
    v2Type: null,
    layout: 'none',
  },
  {
    hash: '45ebbce9b5d235886cb6bfe1c3ad93b708de058244892365c9ee0dfe439cb7b5',
    type: 'wallet_preprocessed_v2',
    v2Type: null,
    layout: 'none',
  },
  {
    // code_hashes.json "wallet_v3r2_lockup" (tonweb LockupWalletV1); no toncenter v3 interface has this hash.
    hash: '88fbf818e47d5f328f7dc34bad4323bb28a12ec6c75ce9ec25d77746c56e1ded',
    type: 'wallet_v3r2_lockup',
    v2Type: null,
    layout: 'seqno_id',
  },
  {
    hash: 'b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590',
    type: 'wallet_vesting',
    v2Type: null,
    layout: 'seqno_id',
  },
];

export const WALLET_CODES: readonly WalletCode[] = [...STANDARD_WALLET_CODES, ...OTHER_WALLET_CODES];

const byHash = new Map(WALLET_CODES.map((c) => [c.hash, c]));

/** The wallet whose code has this hash (a 32-byte Buffer or hex), or undefined. */
export function walletCode(codeHash: Buffer | string): WalletCode | undefined {
  return byHash.get(Buffer.isBuffer(codeHash) ? codeHash.toString('hex') : codeHash.toLowerCase());
}

/** The code hashes (hex, in table order) of the wallets toncenter v3 names `type`. */
export function walletCodeHashes(type: string): string[] {
  return WALLET_CODES.filter((c) => c.type === type).map((c) => c.hash);
}
