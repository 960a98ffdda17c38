// The events a jetton wallet's inbound message yields (contracts.md §2.3, v3-api.md §3.4): transfer#0f8a7ea5 ->
// jetton_transfer (source = the inbound source, which is the master for a governed forced transfer),
// burn#595f07bc -> jetton_burn, internal_transfer#178d4519 -> jetton_mint candidate (the pipeline keeps it only
// when the source is the receiving wallet's master). The body loaders are in src/ton/contracts/jetton-body.ts.
import type { Address, Cell } from '@ton/core';
import {
  JETTON_OP,
  loadJettonBurn,
  loadJettonInternalTransfer,
  loadJettonTransfer,
  payloadCell,
  readBody,
} from '../../../../ton/index.ts';
import type { ContractEvent, MessageInput, TxRef } from '../types.ts';

/** Candidate jetton events of a transaction whose (internal, not bounced) inbound message is `m`. */
export function jettonEvents(account: Address, tx: TxRef, m: MessageInput, body: Cell, op: number): ContractEvent[] {
  switch (op) {
    case JETTON_OP.transfer: {
      const t = readBody(body, op, loadJettonTransfer);
      if (!t) return [];
      return [
        {
          kind: 'jetton_transfer',
          tx,
          account,
          queryId: t.queryId,
          amount: t.amount,
          source: m.source,
          destination: t.destination,
          responseDestination: t.responseDestination,
          customPayload: t.customPayload,
          forwardTonAmount: t.forwardTonAmount,
          forwardPayload: payloadCell(t.forwardPayload),
        },
      ];
    }
    case JETTON_OP.burn: {
      const b = readBody(body, op, loadJettonBurn);
      if (!b) return [];
      return [
        {
          kind: 'jetton_burn',
          tx,
          account,
          queryId: b.queryId,
          owner: m.source,
          amount: b.amount,
          responseDestination: b.responseDestination,
          customPayload: b.customPayload,
        },
      ];
    }
    case JETTON_OP.internalTransfer: {
      const it = readBody(body, op, loadJettonInternalTransfer);
      if (!it) return [];
      return [
        {
          kind: 'jetton_mint',
          tx,
          account,
          queryId: it.queryId,
          amount: it.amount,
          minter: m.source,
          from: it.from,
          responseDestination: it.responseAddress,
          forwardTonAmount: it.forwardTonAmount,
        },
      ];
    }
    default:
      return [];
  }
}
