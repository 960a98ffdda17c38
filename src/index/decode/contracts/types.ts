// The contract decoders' shared vocabulary (issue 9): what goes in (an account's code and data, a transaction
// with its messages) and what comes out (detected interfaces for the latest-state tables, events for the
// transfer tables). Inputs are built both from chain objects (the pipeline) and from stored rows (rederive),
// so they hold only what the database keeps. Pure data: no I/O here.
import type { Address, Cell } from '@ton/core';
import type { TvmRunner } from '../../../tvm/index.ts';

/** An active account as the decoders see it (the pipeline's state after a block, or latest_account_states). */
export interface AccountInput {
  address: Address;
  code: Cell;
  data: Cell;
  balance: bigint;
  /** lt of the account's last transaction in this state (the latest-state tables keep the highest). */
  lastTransLt: bigint;
}

/** A message as stored (messages + message_contents): enough for every event decoder. */
export interface MessageInput {
  hash: Buffer;
  source: Address | null;
  destination: Address | null;
  /** Null for external messages. */
  value: bigint | null;
  bounced: boolean | null;
  /** Signed int32 as messages.opcode holds it; null for bodies shorter than 32 bits. */
  opcode: number | null;
  body: Cell | null;
  createdLt: bigint | null;
}

/** A transaction with its messages as stored. */
export interface TransactionInput {
  account: Address;
  hash: Buffer;
  lt: bigint;
  now: number;
  mcSeqno: number;
  aborted: boolean;
  /** compute phase success (null when skipped). */
  computeSuccess: boolean | null;
  inMsg: MessageInput | null;
  outMsgs: MessageInput[];
}

/** Fields every detected contract carries (the latest-state tables' common columns). */
export interface DetectedBase {
  address: Address;
  codeHash: Buffer;
  dataHash: Buffer;
  lastTransLt: bigint;
}

/** TEP-64 content as toncenter stores it in jsonb: off-chain {"uri"}, on-chain the decoded keys (strings). */
export type ContentJson = Record<string, string>;

export interface DnsRecordValues {
  /** The full domain name, e.g. "alice.ton" (labels in reading order). */
  domain: string;
  nextResolver: Address | null;
  wallet: Address | null;
  /** 64 hex characters. */
  siteAdnl: string | null;
  storageBagId: string | null;
}

export type Detected =
  | (DetectedBase & {
      kind: 'jetton_master';
      totalSupply: bigint;
      mintable: boolean;
      admin: Address | null;
      content: ContentJson | null;
      jettonWalletCodeHash: Buffer;
    })
  | (DetectedBase & {
      kind: 'jetton_wallet';
      balance: bigint;
      owner: Address;
      jetton: Address;
      /** Mintless wallets (is_claimed present): claimed flag; amount/times when the airdrop is known. */
      mintless: { isClaimed: boolean; amount: bigint | null; startFrom: number | null; expireAt: number | null } | null;
    })
  | (DetectedBase & {
      kind: 'nft_collection';
      nextItemIndex: bigint;
      owner: Address | null;
      content: ContentJson | null;
    })
  | (DetectedBase & {
      kind: 'nft_item';
      init: boolean;
      index: bigint;
      collection: Address | null;
      owner: Address | null;
      /** Full content (collection's get_nft_content applied), TEP-64 decoded. */
      content: ContentJson | null;
      /** Set when the collection is a configured DNS root (.ton on mainnet, ours on the devnet). */
      dns: DnsRecordValues | null;
    })
  | (DetectedBase & {
      kind: 'multisig';
      nextOrderSeqno: bigint;
      threshold: bigint;
      signers: Address[];
      proposers: Address[];
    })
  | (DetectedBase & {
      kind: 'multisig_order';
      multisig: Address;
      orderSeqno: bigint;
      threshold: bigint;
      sentForExecution: boolean;
      approvalsMask: bigint;
      approvalsNum: bigint;
      expirationDate: bigint;
      order: Cell;
      signers: Address[];
    })
  | (DetectedBase & {
      kind: 'vesting';
      startTime: number;
      totalDuration: number;
      unlockPeriod: number;
      cliffDuration: number;
      totalAmount: bigint;
      sender: Address;
      owner: Address;
      whitelist: Address[];
    })
  | (DetectedBase & {
      /** A GetGems fix-price sale: get_sale_data with the FIXP magic. */
      kind: 'getgems_sale';
      isComplete: boolean;
      createdAt: bigint;
      marketplace: Address;
      nft: Address;
      /** The seller; null (addr_none) until the item reached the sale. */
      nftOwner: Address | null;
      fullPrice: bigint;
      marketplaceFeeAddress: Address;
      marketplaceFee: bigint;
      royaltyAddress: Address;
      royaltyAmount: bigint;
    })
  | (DetectedBase & {
      /** A GetGems auction: get_auction_data_v4, or get_sale_data with the AUC magic (v1-v3). */
      kind: 'getgems_auction';
      endFlag: boolean;
      endTime: bigint;
      marketplace: Address;
      nft: Address;
      /** The seller; null (addr_none) until the item reached the auction. */
      nftOwner: Address | null;
      lastBid: bigint;
      lastMember: Address | null;
      minStep: bigint;
      mpFeeAddress: Address;
      mpFeeFactor: bigint;
      mpFeeBase: bigint;
      royaltyFeeAddress: Address;
      royaltyFeeFactor: bigint;
      royaltyFeeBase: bigint;
      maxBid: bigint;
      minBid: bigint;
      createdAt: bigint;
      lastBidAt: bigint;
      isCanceled: boolean;
    });

export type DetectedKind = Detected['kind'];

/** Where a transfer-table row comes from: the transaction that received the message. */
export interface TxRef {
  hash: Buffer;
  lt: bigint;
  now: number;
  mcSeqno: number;
  aborted: boolean;
}

/**
 * Events read from messages. Transfer-table rows need the receiving contract's interface (a jetton_transfer is
 * only a row when the receiver is a detected jetton wallet; its master comes from the detection), so events name
 * the contract (`account`) and the pipeline joins them with the detections of the same unit.
 */
export type ContractEvent =
  | {
      kind: 'jetton_transfer';
      tx: TxRef;
      /** The jetton wallet that received transfer#0f8a7ea5 (the transaction's account). */
      account: Address;
      queryId: bigint;
      amount: bigint;
      /** The inbound message's source: the sender's owner. */
      source: Address | null;
      /** destination from the body: the receiver's owner. */
      destination: Address | null;
      responseDestination: Address | null;
      customPayload: Cell | null;
      forwardTonAmount: bigint;
      forwardPayload: Cell | null;
    }
  | {
      kind: 'jetton_burn';
      tx: TxRef;
      account: Address;
      queryId: bigint;
      owner: Address | null;
      amount: bigint;
      responseDestination: Address | null;
      customPayload: Cell | null;
    }
  | {
      /** internal_transfer#178d4519 received by a jetton wallet whose source is the wallet's master. */
      kind: 'jetton_mint';
      tx: TxRef;
      account: Address;
      queryId: bigint;
      amount: bigint;
      /** The master (the inbound message's source). */
      minter: Address | null;
      /** from from the body (who asked the master to mint; often the admin). */
      from: Address | null;
      responseDestination: Address | null;
      forwardTonAmount: bigint;
    }
  | {
      kind: 'nft_transfer';
      tx: TxRef;
      /** The NFT item that received transfer#5fcc3d14. */
      account: Address;
      queryId: bigint;
      oldOwner: Address | null;
      newOwner: Address | null;
      responseDestination: Address | null;
      customPayload: Cell | null;
      forwardAmount: bigint;
      forwardPayload: Cell | null;
    };

export type ContractEventKind = ContractEvent['kind'];

/** What detection needs besides the account: a TVM, the chain's config and libraries, and other accounts. */
export interface DetectContext {
  tvm: TvmRunner;
  /** ConfigParams dictionary root the getters run with. */
  config: Cell;
  /** Libraries by hash (library-cell codes such as USDT's wallet); null when the source has none. */
  library(hash: Buffer): Promise<Cell | null>;
  /** Unix time the getters see (the block's gen_utime). */
  now: number;
  /** Another account's state at the same masterchain block (parent cross-checks); null if unknown. */
  account(address: Address): Promise<AccountInput | null>;
  /** Collections whose items are DNS names, with the suffix their names get (e.g. ".ton"). */
  dnsRoots: ReadonlyArray<{ collection: Address; suffix: string }>;
}
