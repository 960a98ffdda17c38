// The candidate events of one transaction, read from its inbound message (ton-indexer fills the transfer tables
// the same way: contracts.md §1.1). Candidates name the receiving contract; the pipeline keeps those whose
// receiver is detected as the right kind (unit.ts). Bounced inbound messages are refunds and yield nothing;
// aborted transactions yield their events, marked by tx.aborted.
import { JETTON_OP, NFT_OP } from '../../../../ton/index.ts';
import type { ContractEvent, TransactionInput, TxRef } from '../types.ts';
import { jettonEvents } from './jetton.ts';
import { nftEvents } from './nft.ts';

const EVENT_OPCODES = new Set<number>([
  JETTON_OP.transfer,
  JETTON_OP.burn,
  JETTON_OP.internalTransfer,
  NFT_OP.transfer,
]);

export function eventsOf(tx: TransactionInput): ContractEvent[] {
  const m = tx.inMsg;
  // value is null exactly for external messages: only internal ones reach wallets and items as transfers.
  if (!m || m.value === null || m.bounced === true || !m.body || m.opcode === null) return [];
  const op = m.opcode >>> 0;
  if (!EVENT_OPCODES.has(op)) return [];
  const ref: TxRef = { hash: tx.hash, lt: tx.lt, now: tx.now, mcSeqno: tx.mcSeqno, aborted: tx.aborted };
  return op === NFT_OP.transfer
    ? nftEvents(tx.account, ref, m, m.body, op)
    : jettonEvents(tx.account, ref, m, m.body, op);
}
