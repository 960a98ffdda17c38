// The classifier's model: a trace as a tree of transactions (from stored rows, or from the emulator for pending
// traces), what the classifier knows about the contracts in it, and the actions it produces. Values are the
// API's encodings already (hashes base64, addresses raw upper-case), so rows and responses are plain copies.
import type { Cell } from '@ton/core';

export interface TraceMessage {
  /** base64 */
  hash: string;
  /** Raw address; null for an external-in message. */
  source: string | null;
  /** Raw address; null for an external-out message (a log). */
  destination: string | null;
  /** nanotons; null for external messages. */
  value: bigint | null;
  /** Extra currencies (id -> amount), empty when none. */
  extraCurrencies: Record<string, string>;
  /** First 32 bits of the body as an unsigned number; null when the body is shorter. */
  opcode: number | null;
  bounce: boolean;
  bounced: boolean;
  createdLt: bigint | null;
  body: Cell | null;
}

export interface TraceTx {
  /** base64 */
  hash: string;
  lt: bigint;
  now: number;
  /** Raw address of the account. */
  account: string;
  /** Masterchain seqno that committed it (0 for emulated transactions). */
  mcSeqno: number;
  /** TransactionDescr kind: 'ord', 'tick_tock', 'storage', … */
  descr: string;
  aborted: boolean;
  /** Compute phase: null when skipped. */
  computeSuccess: boolean | null;
  computeExitCode: number | null;
  actionResultCode: number | null;
  origStatus: string;
  endStatus: string;
  isTock: boolean;
  inMsg: TraceMessage | null;
  outMsgs: TraceMessage[];
  /** True for a transaction that comes from the emulator, not from a block. */
  emulated?: boolean;
}

export interface TraceNode {
  tx: TraceTx;
  parent: TraceNode | null;
  /** In logical-time order. */
  children: TraceNode[];
}

export interface TraceInput {
  traceId: string;
  externalHash: string | null;
  externalHashNorm: string | null;
  root: TraceNode;
  /** Every node, in (lt, account) order. */
  nodes: TraceNode[];
  /** False when a member's parent was never seen (indexing started mid-trace). */
  broken: boolean;
  endLt: bigint;
  endUtime: number;
  mcSeqnoEnd: number;
}

/** What the classifier knows about a contract (from the decoders' tables, or detected on emulated states). */
export interface ContractInfo {
  jettonWallet?: { jetton: string; owner: string };
  jettonMaster?: true;
  nftItem?: { collection: string | null; index: string; owner: string | null };
  nftCollection?: true;
  /** A DNS item (an NFT of a DNS collection): its domain. */
  dnsItem?: { domain: string | null; collection: string | null };
  multisig?: true;
  /** `signers`: the order's signer list (raw addresses), when known; multisig actions list them as participants. */
  multisigOrder?: { multisig: string; orderSeqno: string; signers?: string[] };
  vesting?: { owner: string | null; sender: string | null };
  /** A standard nominator pool (ton-blockchain/nominator-pool), known by its code hash. */
  nominatorPool?: true;
  /**
   * A JVault stake wallet, as its data reads (loaded for the accounts a matcher asks for, AccountDataRequest): the
   * pool it belongs to, its stake jetton, and the jetton the pool locks (the pool's lock wallet's jetton; null when
   * the pool's data or the lock wallet is not known).
   */
  jvaultStakeWallet?: { pool: string; stakeJetton: string | null; lockedJetton: string | null };
  /** A GetGems fix-price sale (getgems_nft_sales): price = full_price. */
  getgemsSale?: GetgemsListing;
  /** A GetGems auction (getgems_nft_auctions): price = last_bid. */
  getgemsAuction?: GetgemsListing;
}

/** What the classifier reads of a GetGems sale or auction: the item, the seller, the price, the marketplace. */
export interface GetgemsListing {
  nft: string | null;
  seller: string | null;
  price: string | null;
  marketplace: string | null;
}

/** An account whose stored data a matcher needs read into its ContractInfo, and as what. */
export interface AccountDataRequest {
  account: string;
  as: 'jvaultStakeWallet';
}

export interface Interfaces {
  /** By raw address. */
  get(address: string): ContractInfo | undefined;
}

/** The generic columns of toncenter's actions table (v3-api.md §6.3); details hold the named fields. */
export interface ActionColumns {
  source?: string | null;
  sourceSecondary?: string | null;
  destination?: string | null;
  destinationSecondary?: string | null;
  asset?: string | null;
  assetSecondary?: string | null;
  asset2?: string | null;
  asset2Secondary?: string | null;
  opcode?: number | null;
  value?: bigint | null;
  amount?: bigint | null;
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
export type Details = { [k: string]: JsonValue };

/** What a matcher recognised; the driver turns it into an Action (ids, times, transactions, accounts). */
export interface ActionDraft extends ActionColumns {
  type: string;
  /**
   * The transactions the action consists of. The driver adds the transaction that sent the first one's inbound
   * message (the initiating transaction) to the action's transactions and participants.
   */
  nodes: TraceNode[];
  success: boolean;
  details: Details;
  /** Participants beyond the generic columns and the transactions' accounts. */
  accounts?: string[];
  /**
   * Composite actions (non-v1 types): the nodes whose subtrees are classified again as this action's children
   * (stored with ancestor_type, shown to clients that do not know this type).
   */
  inner?: TraceNode[];
  /**
   * The actions this one was merged from (toncenter's merged blocks of a non-v1 action: an nft_purchase holds its
   * nft_transfer and the seller's payout), stored as its children with ancestor_type; their nodes are among `nodes`.
   */
  parts?: ActionDraft[];
  /**
   * A message a wallet's request asked for and never sent (failed-external.ts): the driver keys the action by it and
   * leaves its receivers out of the participants, as toncenter does.
   */
  intended?: IntendedMessage;
}

/**
 * A message a wallet's signed request asked for but never sent (toncenter's "ghost" operations): the hash of its
 * cell in the request and its position there, counted as toncenter counts it (matchers/failed-external.ts).
 */
export interface IntendedMessage {
  cellHash: Buffer;
  index: number;
}

export interface Action extends ActionColumns {
  traceId: string;
  actionId: string;
  type: string;
  startLt: bigint;
  endLt: bigint;
  startUtime: number;
  endUtime: number;
  /** In logical-time order. */
  txHashes: string[];
  success: boolean;
  details: Details;
  /** Participants (action_accounts), sorted, unique. */
  accounts: string[];
  traceEndLt: bigint;
  traceEndUtime: number;
  traceExternalHash: string | null;
  traceExternalHashNorm: string | null;
  traceMcSeqnoEnd: number;
  /** Masterchain seqno of the action's last transaction (0 for emulated ones). */
  mcSeqnoEnd: number;
  parentActionId: string | null;
  ancestorType: string[];
}

export interface MatchContext {
  interfaces: Interfaces;
  /** Nodes already part of an action (matchers must not take them). */
  isClaimed(node: TraceNode): boolean;
}

/**
 * A matcher recognises one protocol's pattern starting at `node` (a transaction not yet claimed), in pre-order over
 * the trace. It returns the actions it made (usually one), or null. One file per protocol; registered in
 * matchers/index.ts, tried in table order at each node.
 */
export interface Matcher {
  name: string;
  /** The action types it can produce (for the registry's checks and docs). */
  types: readonly string[];
  match(node: TraceNode, ctx: MatchContext): ActionDraft[] | null;
  /**
   * Addresses the matcher will ask `ctx.interfaces` about at `node` beyond the trace's accounts and message ends,
   * read from the node's bodies (a router wallet a swap request names). Loaded with the others, before matching.
   */
  addressesFor?(node: TraceNode): string[];
  /** Accounts whose data the matcher will read through `ctx.interfaces` at `node` (loaded before matching). */
  accountDataFor?(node: TraceNode): AccountDataRequest[];
}
