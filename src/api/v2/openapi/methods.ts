// What /api/v2/openapi.json says about each method of the v2 method table (methods/*.ts), by name: summary,
// parameters, the schema of `result` and the error statuses it can answer besides the common ones. document.ts
// turns each served method (and alias) into its operations; a method the table serves without an entry here is
// left out of the document, which the v2-openapi test refuses.
import { list, ref, type Schema, str, uint64Str } from './kit.ts';
import {
  ACCOUNT_SEQNO,
  ADDRESS,
  BLOCK_SEQNO,
  boolParam,
  bytesParam,
  FILE_HASH,
  hashParam,
  int32Param,
  int64Param,
  LOCATE,
  libraryList,
  methodParam,
  type ParamDoc,
  ROOT_HASH,
  SHARD,
  stackParam,
  textParam,
  WORKCHAIN,
} from './params.ts';

export interface MethodDoc {
  tag: string;
  summary: string;
  description: string;
  /** How long answers are reused (README, methods table). */
  cache: string;
  params: ParamDoc[];
  /** The schema of `result` in a successful answer. */
  result: Schema;
  /** Statuses besides the common ones (document.ts: 401, 422, 429, 500, 503; with a JSON body 400, 413, 415). */
  errors?: number[];
  /** false: answered without a liteserver, so never 504 or 542. */
  liteserver?: false;
}

export const TAGS = [
  { name: 'Accounts', description: 'Account states read from a liteserver at the head or at a masterchain seqno.' },
  { name: 'Blocks', description: 'Blocks, shards, headers, proofs and signatures.' },
  { name: 'Transactions', description: "A block's transactions, an account's history, a message's transactions." },
  { name: 'Send', description: 'Sending external messages and estimating their fees (POST only).' },
  { name: 'Get-methods', description: 'Running get-methods on an account state (POST only).' },
  { name: 'Utilities', description: 'Address and hash forms; no liteserver involved.' },
  { name: 'Config', description: 'Blockchain configuration and libraries.' },
  { name: 'JSON-RPC', description: 'Every method through one POST endpoint.' },
  { name: 'Docs', description: 'This document.' },
  { name: 'Not allowed', description: 'GET on POST-only endpoints: always 405.' },
];

const AT_HEAD = 'for 200 ms at the head; for good with seqno';
const FOREVER = 'for good (a fixed block)';
const NOT_CACHED = 'not cached';
const ACCOUNT = [ADDRESS, ACCOUNT_SEQNO];
const BLOCK = [WORKCHAIN, SHARD, BLOCK_SEQNO];
const BLOCK_TXS = [
  ...BLOCK,
  ROOT_HASH,
  FILE_HASH,
  int64Param('after_lt', 'lt of the last transaction of the previous page (>= 0), with after_hash.', { min: 0 }),
  textParam(
    'after_hash',
    'Account of the last transaction of the previous page (not the transaction hash), with after_lt: an address ' +
      'in any form (its workchain is ignored) or the 32 bytes as a hash (64 hex digits or base64).',
  ),
  int64Param('count', 'Transactions to return, 1 to 10000.', { min: 1, max: 10000, default: 40 }),
];
const HISTORY = [
  ADDRESS,
  int64Param('limit', 'Transactions to return, 1 to 1000.', { min: 1, max: 1000, default: 10 }),
  int64Param('lt', 'Start here (inclusive), with hash; the last transaction when absent.', { min: 0 }),
  hashParam('hash', 'Hash of the transaction to start at, with lt.'),
  int64Param('to_lt', 'Stop before the first transaction with lt <= to_lt.', { default: 0 }),
  boolParam(
    'archival',
    'true: start on archive liteservers. Without it any server answers, and one that lacks the history hands the ' +
      'request to an archive server.',
  ),
];
const BOC_PARAM = bytesParam('boc', 'One inbound external message, serialised as a BoC.', true);
const RUN = (form: 'legacy' | 'std') => [
  ADDRESS,
  methodParam,
  stackParam(form),
  int32Param('seqno', 'Masterchain seqno to run at (> 0); the head when absent.', { min: 1 }),
];

function account(summary: string, description: string, result: Schema, errors?: number[]): MethodDoc {
  return { tag: 'Accounts', summary, description, cache: AT_HEAD, params: ACCOUNT, result, errors };
}

export const METHOD_DOCS: Record<string, MethodDoc> = {
  getAddressInformation: account(
    'Account state',
    'Balance, code, data, last transaction and status of an account, with the block it was read at.',
    ref('raw.fullAccountState'),
  ),
  getExtendedAddressInformation: account(
    "Account state with tonlib's contract detection",
    'The account with its contract recognised as tonlib recognises it (legacy wallets only).',
    ref('fullAccountState'),
  ),
  getWalletInformation: account(
    'Wallet information',
    'Whether the account runs a known wallet code, and its seqno and wallet id.',
    ref('ext.accounts.walletInformation'),
  ),
  getAddressBalance: account('Balance', 'The balance in nanotons.', uint64Str('nanotons, decimal string')),
  getAddressState: account('Status', 'The account status.', {
    type: 'string',
    enum: ['uninitialized', 'active', 'frozen'],
  }),
  getTokenData: account(
    'Jetton or NFT data',
    'The contract as a jetton master, jetton wallet, NFT collection or NFT item (tried in that order; wallets and ' +
      'items verified against their parent). Not a token: 409.',
    {
      oneOf: [
        'ext.tokens.jettonMasterData',
        'ext.tokens.jettonWalletData',
        'ext.tokens.nftCollectionData',
        'ext.tokens.nftItemData',
      ].map(ref),
    },
    [409],
  ),
  getShardAccountCell: account(
    'ShardAccount cell',
    'The account as the shard state holds it: a ShardAccount (the Account cell by reference, the last transaction ' +
      'hash and lt) serialised as one BoC; account_none for a never-used address.',
    ref('tvm.cell'),
  ),

  getMasterchainInfo: {
    tag: 'Blocks',
    summary: 'Masterchain head',
    description: 'The newest masterchain block of a liteserver, its state hash and the zero state.',
    cache: 'for 200 ms',
    params: [],
    result: ref('blocks.masterchainInfo'),
  },
  getMasterchainBlockSignatures: {
    tag: 'Blocks',
    summary: 'Signatures of a masterchain block',
    description: 'The validator signatures of a masterchain block, from the proof link of the block before it.',
    cache: FOREVER,
    params: [int32Param('seqno', 'Masterchain seqno (> 0).', { min: 1, required: true })],
    result: { oneOf: [ref('blocks.blockSignatures'), ref('blocks.blockSignatures.simplex')] },
  },
  getShardBlockProof: {
    tag: 'Blocks',
    summary: 'Proof of a shard block',
    description: 'Links from a shard block to the masterchain block that commits it, and back from from_seqno.',
    cache: 'for good with from_seqno; for 200 ms without',
    params: [
      ...BLOCK,
      int32Param('from_seqno', 'Masterchain seqno to prove from (>= 0); the head when absent.', { min: 0 }),
    ],
    result: ref('blocks.shardBlockProof'),
  },
  getConsensusBlock: {
    tag: 'Blocks',
    summary: 'Consensus block',
    description: 'The best masterchain seqno a healthy liteserver of the pool reported; 500 when none is healthy.',
    cache: NOT_CACHED,
    params: [],
    result: ref('ext.blocks.consensusBlock'),
    liteserver: false,
  },
  lookupBlock: {
    tag: 'Blocks',
    summary: 'Look a block up',
    description: 'The block of a shard by seqno, by lt or by unix time: exactly one of the three.',
    cache: 'for good once found',
    params: [
      WORKCHAIN,
      SHARD,
      int32Param('seqno', 'Seqno (> 0).', { min: 1 }),
      int64Param('lt', 'The block holding this logical time (>= 0).', { min: 0 }),
      int32Param('unixtime', 'The block generated at this time (>= 0).', { min: 0 }),
    ],
    result: ref('ton.blockIdExt'),
  },
  getShards: {
    tag: 'Blocks',
    summary: 'Shards of a masterchain block',
    description: 'The shard blocks a masterchain block commits.',
    cache: FOREVER,
    params: [int32Param('seqno', 'Masterchain seqno (> 0).', { min: 1, required: true })],
    result: ref('blocks.shards'),
  },
  getBlockHeader: {
    tag: 'Blocks',
    summary: 'Block header',
    description: 'The header of a block, read from its proof; looked up by seqno unless both hashes are given.',
    cache: FOREVER,
    params: [...BLOCK, ROOT_HASH, FILE_HASH],
    result: ref('blocks.header'),
  },
  getOutMsgQueueSize: {
    tag: 'Blocks',
    summary: 'Outbound queue sizes',
    description: 'The outbound message queue size of every shard at the head.',
    cache: 'for 200 ms',
    params: [],
    result: ref('blocks.outMsgQueueSizes'),
  },

  getBlockTransactions: {
    tag: 'Transactions',
    summary: "A block's transactions",
    description: "A page of a block's transaction ids, ordered by account and lt.",
    cache: FOREVER,
    params: BLOCK_TXS,
    result: ref('blocks.transactions'),
  },
  getBlockTransactionsExt: {
    tag: 'Transactions',
    summary: "A block's transactions in full",
    description: "A page of a block's transactions, ordered by account and lt.",
    cache: FOREVER,
    params: BLOCK_TXS,
    result: ref('blocks.transactionsExt'),
  },
  getTransactions: {
    tag: 'Transactions',
    summary: "An account's history",
    description: 'Transactions of an account, newest first, from lt+hash (inclusive) or the last one.',
    cache: 'for good with lt and hash; for 200 ms without',
    params: HISTORY,
    result: list(ref('ext.transaction'), 'newest first'),
  },
  getTransactionsStd: {
    tag: 'Transactions',
    summary: "An account's history (tonlib form)",
    description: 'As getTransactions, in tonlib form, with the id the next page starts at.',
    cache: 'for good with lt and hash; for 200 ms without',
    params: HISTORY,
    result: ref('raw.transactions'),
  },
  tryLocateResultTx: {
    tag: 'Transactions',
    summary: 'Transaction of an internal message at its receiver',
    description:
      "The destination's transaction that received the message source → destination created at created_lt; 404 " +
      'when it is not there (yet).',
    cache: 'for good once found',
    params: LOCATE,
    result: ref('ext.transaction'),
    errors: [404],
  },
  tryLocateSourceTx: {
    tag: 'Transactions',
    summary: 'Transaction that sent an internal message',
    description:
      "The source's transaction that sent the message source → destination created at created_lt; 404 when none.",
    cache: 'for good once found',
    params: LOCATE,
    result: ref('ext.transaction'),
    errors: [404],
  },

  sendBoc: {
    tag: 'Send',
    summary: 'Send an external message',
    description:
      'Sends the message to up to five liteservers; the first that accepts answers. A BoC that is not one ' +
      'external-in message is 400.',
    cache: NOT_CACHED,
    params: [BOC_PARAM],
    result: ref('ok'),
    errors: [400],
  },
  sendBocReturnHash: {
    tag: 'Send',
    summary: 'Send an external message, get its hashes',
    description: 'As sendBoc, answering the hash and the normalised hash of the message.',
    cache: NOT_CACHED,
    params: [BOC_PARAM],
    result: ref('raw.extMessageInfo'),
    errors: [400],
  },
  estimateFee: {
    tag: 'Send',
    summary: 'Estimate fees',
    description:
      'Fees of an external message to `address` carrying `body` (the message body, not a whole message), run on the ' +
      'newest state. A body or init that is not a BoC is 400.',
    cache: NOT_CACHED,
    params: [
      ADDRESS,
      bytesParam('body', 'The message body cell as a BoC.', true),
      bytesParam('init_code', 'Code of a StateInit to deploy with the message.'),
      bytesParam('init_data', 'Data of that StateInit (read only with init_code).'),
      boolParam('ignore_chksig', 'Succeed signature checks (CHKSIG) as if the message were signed.', true),
    ],
    result: ref('query.fees'),
    errors: [400],
  },

  runGetMethod: {
    tag: 'Get-methods',
    summary: 'Run a get-method (legacy stack)',
    description:
      'Runs a get-method on the account state at the head or at seqno. A non-zero exit code is an answer. An ' +
      'unknown stack entry type is 542; a result nested 256 deep is 533.',
    cache: NOT_CACHED,
    params: RUN('legacy'),
    result: ref('smc.runResult.legacy'),
    errors: [533],
  },
  runGetMethodStd: {
    tag: 'Get-methods',
    summary: 'Run a get-method (tonlib stack)',
    description: 'As runGetMethod with stacks in tonlib typed form.',
    cache: NOT_CACHED,
    params: RUN('std'),
    result: ref('smc.runResult'),
    errors: [533],
  },

  detectAddress: {
    tag: 'Utilities',
    summary: 'Every form of an address',
    description: 'The raw form and both user-friendly forms of an address.',
    cache: NOT_CACHED,
    params: [ADDRESS],
    result: ref('ext.utils.detectedAddress'),
    liteserver: false,
  },
  detectHash: {
    tag: 'Utilities',
    summary: 'Every form of a hash',
    description: 'A hash in base64, base64url and hex.',
    cache: NOT_CACHED,
    params: [hashParam('hash', 'The hash.', true)],
    result: ref('ext.utils.detectedHash'),
    liteserver: false,
  },
  packAddress: {
    tag: 'Utilities',
    summary: 'User-friendly form',
    description: 'The url-safe user-friendly form (a raw address becomes bounceable).',
    cache: NOT_CACHED,
    params: [ADDRESS],
    result: str('url-safe user-friendly address'),
    liteserver: false,
  },
  unpackAddress: {
    tag: 'Utilities',
    summary: 'Raw form',
    description: 'The raw form, upper-case hex.',
    cache: NOT_CACHED,
    params: [ADDRESS],
    result: str('<workchain>:<64 upper-case hex digits>', { pattern: '^-?[0-9]+:[0-9A-F]{64}$' }),
    liteserver: false,
  },

  getConfigParam: {
    tag: 'Config',
    summary: 'A config parameter',
    description:
      'One parameter of the config at the head or at seqno, proven against the block. A parameter the config ' +
      'lacks has bytes "". Exactly one of config_id and param (in a query string config_id wins).',
    cache: AT_HEAD,
    params: [
      int32Param('config_id', 'Parameter number (>= 0).', { min: 0 }),
      int32Param('param', 'Parameter number (>= 0); another name for config_id.', { min: 0 }),
      int32Param('seqno', 'Masterchain seqno (> 0); the head when absent.', { min: 1 }),
    ],
    result: ref('configInfo'),
  },
  getConfigAll: {
    tag: 'Config',
    summary: 'The whole config',
    description: 'The ConfigParams dictionary at the head or at seqno, proven against the block.',
    cache: AT_HEAD,
    params: [int32Param('seqno', 'Masterchain seqno (> 0); the head when absent.', { min: 1 })],
    result: ref('configInfo'),
  },
  getLibraries: {
    tag: 'Config',
    summary: 'Library cells',
    description: 'Library cells by hash, proven against the head state; hashes the state lacks are left out.',
    cache: 'for 200 ms',
    params: [libraryList],
    result: ref('smc.libraryResult'),
  },
};
