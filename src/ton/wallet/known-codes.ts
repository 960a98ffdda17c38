// Wallet contracts recognised by the hash of their code cell (../shared/vectors/code_hashes.json lists the
// hashes with their provenance; a test recomputes them from our own wallet code cells). `v2Type` is the
// wallet_type string of toncenter v2 getWalletInformation (v2-api.md §8), `v3Interface` the interface name
// toncenter v3 reports (v3-api.md Appendix B).
export interface KnownWalletCode {
  /** Code cell representation hash, hex. */
  hash: string;
  v2Type: string | null;
  v3Interface: string;
  /** What the wallet's data holds, in order: the fields getWalletInformation parses. */
  data: 'seqno' | 'seqno_id' | 'v5' | 'highload_v2' | 'highload_v3';
}

export const KNOWN_WALLET_CODES: readonly KnownWalletCode[] = [
  {
    hash: 'a0cfc2c48aee16a271f2cfc0b7382d81756cecb1017d077faaab3bb602f6868c',
    v2Type: 'wallet v1 r1',
    v3Interface: 'wallet_v1r1',
    data: 'seqno',
  },
  {
    hash: 'd4902fcc9fad74698fa8e353220a68da0dcf72e32bcb2eb9ee04217c17d3062c',
    v2Type: 'wallet v1 r2',
    v3Interface: 'wallet_v1r2',
    data: 'seqno',
  },
  {
    hash: '587cc789eff1c84f46ec3797e45fc809a14ff5ae24f1e0c7a6a99cc9dc9061ff',
    v2Type: 'wallet v1 r3',
    v3Interface: 'wallet_v1r3',
    data: 'seqno',
  },
  {
    hash: '5c9a5e68c108e18721a07c42f9956bfb39ad77ec6d624b60c576ec88eee65329',
    v2Type: 'wallet v2 r1',
    v3Interface: 'wallet_v2r1',
    data: 'seqno',
  },
  {
    hash: 'fe9530d3243853083ef2ef0b4c2908c0abf6fa1c31ea243aacaa5bf8c7d753f1',
    v2Type: 'wallet v2 r2',
    v3Interface: 'wallet_v2r2',
    data: 'seqno',
  },
  {
    hash: 'b61041a58a7980b946e8fb9e198e3c904d24799ffa36574ea4251c41a566f581',
    v2Type: 'wallet v3 r1',
    v3Interface: 'wallet_v3r1',
    data: 'seqno_id',
  },
  {
    hash: '84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599',
    v2Type: 'wallet v3 r2',
    v3Interface: 'wallet_v3r2',
    data: 'seqno_id',
  },
  {
    hash: '64dd54805522c5be8a9db59cea0105ccf0d08786ca79beb8cb79e880a8d7322d',
    v2Type: 'wallet v4 r1',
    v3Interface: 'wallet_v4r1',
    data: 'seqno_id',
  },
  {
    hash: 'feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0',
    v2Type: 'wallet v4 r2',
    v3Interface: 'wallet_v4r2',
    data: 'seqno_id',
  },
  {
    hash: 'f3d7ca53493deedac28b381986a849403cbac3d2c584779af081065af0ac4b93',
    v2Type: 'wallet v5 beta',
    v3Interface: 'wallet_v5_beta',
    data: 'v5',
  },
  {
    hash: '20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f',
    v2Type: 'wallet v5 r1',
    v3Interface: 'wallet_v5r1',
    data: 'v5',
  },
  {
    hash: '9494d1cc8edf12f05671a1a9ba09921096eb50811e1924ec65c3c629fbb80812',
    v2Type: null,
    v3Interface: 'wallet_highload_v2',
    data: 'highload_v2',
  },
  {
    hash: '203dd4f358adb49993129aa925cac39916b68a0e4f78d26e8f2c2b69eafa5679',
    v2Type: null,
    v3Interface: 'wallet_highload_v2r2',
    data: 'highload_v2',
  },
  {
    hash: '11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525',
    v2Type: null,
    v3Interface: 'wallet_highload_v3r1',
    data: 'highload_v3',
  },
];

const byHash = new Map(KNOWN_WALLET_CODES.map((c) => [c.hash, c]));

/** The wallet whose code cell has this hash (hex or a 32-byte Buffer or standard base64), or undefined. */
export function knownWalletCode(hash: string | Buffer | null | undefined): KnownWalletCode | undefined {
  if (hash === null || hash === undefined) return undefined;
  const hex = Buffer.isBuffer(hash)
    ? hash.toString('hex')
    : hash.length === 64
      ? hash.toLowerCase()
      : Buffer.from(hash, 'base64').toString('hex');
  return byHash.get(hex);
}

/** The 11 "user wallet" codes (v1r1…v5r1) for which toncenter v3 prints non-bounceable user-friendly forms. */
export function isUserWalletCode(hash: string | Buffer | null | undefined): boolean {
  return knownWalletCode(hash)?.v2Type !== null && knownWalletCode(hash) !== undefined;
}
