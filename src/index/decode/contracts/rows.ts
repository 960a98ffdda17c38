// Detections and events -> contract-table rows (column order of ./columns.ts), in schema/README.md's encodings:
// raw upper-case addresses, base64 hashes, BoCs as base64 text, 64-bit and larger quantities as bigint (COPY
// writes them in decimal), TEP-64 content as a plain object for jsonb, address lists as arrays. Pure functions.
import type { Address, Cell } from '@ton/core';
import { formatAddressV3 } from '../../../ton/index.ts';
import type { Row } from '../columns.ts';
import { b64, bocBase64 } from '../rows.ts';
import type { ContractEvent, Detected, TxRef } from './types.ts';

export interface TableRow {
  table: string;
  row: Row;
}

/** What the join of an event with its receiver's detection knows (only the fields of the event's family are set). */
export interface EventJoin {
  /** Jetton events: the wallet's master (its get_wallet_data jetton). */
  jettonMaster?: Address;
  /** Jetton events: the wallet's owner (mints record it as their destination). */
  walletOwner?: Address;
  /** NFT transfers: the item's collection (null for an item without one) and index. */
  nftCollection?: Address | null;
  nftIndex?: bigint;
}

const addr = (a: Address | null | undefined): string | null => (a ? formatAddressV3(a) : null);
const boc = (c: Cell | null): string | null => (c ? bocBase64(c) : null);

/** last_transaction_lt, code_hash, data_hash: the columns every latest-state table has after its own. */
const stateTail = (d: Detected): Row => [d.lastTransLt, b64(d.codeHash), b64(d.dataHash)];

/** The seller of `item` when `holder` is a sale or auction contract holding it (see sellersOf), else null. */
export type SellerOf = (holder: Address, item: Address) => Address | null;

/**
 * The sellers the sale and auction detections of one unit name, as toncenter's worker fills nft_items.real_owner:
 * only from contracts decoded in the same batch as the item (a sale's state changes whenever it receives the item).
 */
export function sellersOf(detected: readonly Detected[]): SellerOf {
  const sellers = new Map<string, Address>();
  const pair = (holder: Address, item: Address) => `${holder.toRawString()}|${item.toRawString()}`;
  for (const d of detected) {
    // A fix-price sale wins over an auction of the same pair, as in toncenter's worker.
    if (d.kind === 'getgems_auction' && d.nftOwner) sellers.set(pair(d.address, d.nft), d.nftOwner);
  }
  for (const d of detected) {
    if (d.kind === 'getgems_sale' && d.nftOwner) sellers.set(pair(d.address, d.nft), d.nftOwner);
  }
  return (holder, item) => sellers.get(pair(holder, item)) ?? null;
}

const noSellers: SellerOf = () => null;

/**
 * One detection -> its latest-state rows. An NFT item of a DNS root also gives its dns_entries row, a vesting
 * contract one vesting_whitelist row per whitelisted address; an item held by a sale or auction `sellerOf` knows
 * gets the seller as real_owner.
 */
export function detectedRow(d: Detected, sellerOf: SellerOf = noSellers): TableRow[] {
  const address = formatAddressV3(d.address);
  switch (d.kind) {
    case 'jetton_master':
      return [
        {
          table: 'jetton_masters',
          row: [
            address,
            d.totalSupply,
            d.mintable,
            addr(d.admin),
            d.content,
            b64(d.jettonWalletCodeHash),
            ...stateTail(d),
          ],
        },
      ];
    case 'jetton_wallet': {
      const m = d.mintless;
      return [
        {
          table: 'jetton_wallets',
          row: [
            address,
            d.balance,
            formatAddressV3(d.owner),
            formatAddressV3(d.jetton),
            ...stateTail(d),
            m ? m.isClaimed : null,
            m?.amount ?? null,
            m?.startFrom ?? null,
            m?.expireAt ?? null,
          ],
        },
      ];
    }
    case 'nft_collection':
      return [
        {
          table: 'nft_collections',
          row: [address, d.nextItemIndex, addr(d.owner), d.content, ...stateTail(d)],
        },
      ];
    case 'nft_item': {
      const out: TableRow[] = [
        {
          table: 'nft_items',
          row: [
            address,
            d.init,
            d.index,
            addr(d.collection),
            addr(d.owner),
            d.content,
            ...stateTail(d),
            d.owner ? addr(sellerOf(d.owner, d.address)) : null,
          ],
        },
      ];
      if (d.dns) {
        out.push({
          table: 'dns_entries',
          row: [
            address,
            addr(d.owner),
            d.dns.domain,
            addr(d.dns.nextResolver),
            addr(d.dns.wallet),
            d.dns.siteAdnl,
            d.dns.storageBagId,
            d.lastTransLt,
          ],
        });
      }
      return out;
    }
    case 'multisig':
      return [
        {
          table: 'multisig',
          row: [
            address,
            d.nextOrderSeqno,
            d.threshold,
            d.signers.map(formatAddressV3),
            d.proposers.map(formatAddressV3),
            ...stateTail(d),
          ],
        },
      ];
    case 'multisig_order':
      return [
        {
          table: 'multisig_orders',
          row: [
            address,
            formatAddressV3(d.multisig),
            d.orderSeqno,
            d.threshold,
            d.sentForExecution,
            d.approvalsMask,
            d.approvalsNum,
            d.expirationDate,
            bocBase64(d.order),
            d.signers.map(formatAddressV3),
            ...stateTail(d),
          ],
        },
      ];
    case 'vesting': {
      const whitelist = [...new Set(d.whitelist.map(formatAddressV3))];
      return [
        {
          table: 'vesting_contracts',
          row: [
            address,
            d.startTime,
            d.totalDuration,
            d.unlockPeriod,
            d.cliffDuration,
            d.totalAmount,
            formatAddressV3(d.sender),
            formatAddressV3(d.owner),
            ...stateTail(d),
          ],
        },
        ...whitelist.map((w) => ({ table: 'vesting_whitelist', row: [address, w] })),
      ];
    }
    case 'getgems_sale':
      return [
        {
          table: 'getgems_nft_sales',
          row: [
            address,
            d.isComplete,
            d.createdAt,
            formatAddressV3(d.marketplace),
            formatAddressV3(d.nft),
            addr(d.nftOwner),
            d.fullPrice,
            formatAddressV3(d.marketplaceFeeAddress),
            d.marketplaceFee,
            formatAddressV3(d.royaltyAddress),
            d.royaltyAmount,
            ...stateTail(d),
          ],
        },
      ];
    case 'getgems_auction':
      return [
        {
          table: 'getgems_nft_auctions',
          row: [
            address,
            d.endFlag,
            d.endTime,
            formatAddressV3(d.marketplace),
            formatAddressV3(d.nft),
            addr(d.nftOwner),
            d.lastBid,
            addr(d.lastMember),
            d.minStep,
            formatAddressV3(d.mpFeeAddress),
            d.mpFeeFactor,
            d.mpFeeBase,
            formatAddressV3(d.royaltyFeeAddress),
            d.royaltyFeeFactor,
            d.royaltyFeeBase,
            d.maxBid,
            d.minBid,
            d.createdAt,
            d.lastBidAt,
            d.isCanceled,
            ...stateTail(d),
          ],
        },
      ];
  }
}

/** tx_hash, tx_lt, tx_now, tx_aborted, mc_seqno: the head of every event row. */
const txHead = (tx: TxRef): Row => [b64(tx.hash), tx.lt, tx.now, tx.aborted, tx.mcSeqno];

/** One event joined with its receiver's detection -> its event-table row. trace_id is NULL (no traces yet). */
export function eventRow(e: ContractEvent, join: EventJoin): TableRow {
  const account = formatAddressV3(e.account);
  switch (e.kind) {
    case 'jetton_transfer':
      return {
        table: 'jetton_transfers',
        row: [
          ...txHead(e.tx),
          e.queryId,
          e.amount,
          addr(e.source),
          addr(e.destination),
          account,
          addr(join.jettonMaster),
          addr(e.responseDestination),
          boc(e.customPayload),
          e.forwardTonAmount,
          boc(e.forwardPayload),
          null,
        ],
      };
    case 'jetton_burn':
      return {
        table: 'jetton_burns',
        row: [
          ...txHead(e.tx),
          e.queryId,
          addr(e.owner),
          account,
          addr(join.jettonMaster),
          e.amount,
          addr(e.responseDestination),
          boc(e.customPayload),
          null,
        ],
      };
    case 'jetton_mint':
      return {
        table: 'jetton_mints',
        row: [
          ...txHead(e.tx),
          e.queryId,
          e.amount,
          addr(e.minter),
          addr(e.from),
          addr(join.walletOwner),
          account,
          addr(join.jettonMaster),
          addr(e.responseDestination),
          e.forwardTonAmount,
          null,
        ],
      };
    case 'nft_transfer':
      return {
        table: 'nft_transfers',
        row: [
          ...txHead(e.tx),
          e.queryId,
          account,
          join.nftIndex ?? null,
          addr(join.nftCollection),
          addr(e.oldOwner),
          addr(e.newOwner),
          addr(e.responseDestination),
          boc(e.customPayload),
          e.forwardAmount,
          boc(e.forwardPayload),
          null,
        ],
      };
  }
}
