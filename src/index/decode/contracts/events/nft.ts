// The event an NFT (TEP-62) item's inbound transfer#5fcc3d14 yields (contracts.md §4.2, v3-api.md §3.5:
// old_owner = the inbound source); the body loaders are in src/ton/contracts/nft-body.ts.
import type { Address, Cell } from '@ton/core';
import { loadNftTransfer, NFT_OP, payloadCell, readBody } from '../../../../ton/index.ts';
import type { ContractEvent, MessageInput, TxRef } from '../types.ts';

/** Candidate NFT events of a transaction whose (internal, not bounced) inbound message is `m`. */
export function nftEvents(account: Address, tx: TxRef, m: MessageInput, body: Cell, op: number): ContractEvent[] {
  if (op !== NFT_OP.transfer) return [];
  const t = readBody(body, op, loadNftTransfer);
  if (!t) return [];
  return [
    {
      kind: 'nft_transfer',
      tx,
      account,
      queryId: t.queryId,
      oldOwner: m.source,
      newOwner: t.newOwner,
      responseDestination: t.responseDestination,
      customPayload: t.customPayload,
      forwardAmount: t.forwardAmount,
      forwardPayload: payloadCell(t.forwardPayload),
    },
  ];
}
