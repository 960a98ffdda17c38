// Waiting on the chain from a test: a bounded poll, and a wallet's transaction found by its inbound message hash
// through a test's own ton-lite-client (the chain's answer, never our server's).

import type { Address } from '@ton/core';
import { beginCell, Cell, loadTransaction, storeMessage, type Transaction } from '@ton/core';
import type { LiteClient } from 'ton-lite-client';

/** Polls `probe` every 150 ms until it gives a value; fails after `timeoutMs` naming `what`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The account's transaction whose inbound message has this hash, once it is on chain (among its last 8). */
export function landedTransaction(lite: LiteClient, address: Address, inMsgHash: Buffer): Promise<Transaction> {
  return waitFor('the transaction to land', async () => {
    const block = (await lite.getMasterchainInfo()).last;
    const st = await lite.getAccountState(address, block);
    if (!st.lastTx) return undefined;
    const list = await lite.getAccountTransactions(
      address,
      st.lastTx.lt.toString(),
      Buffer.from(st.lastTx.hash.toString(16).padStart(64, '0'), 'hex'),
      8,
    );
    for (const c of Cell.fromBoc(list.transactions)) {
      const tx = loadTransaction(c.beginParse());
      if (tx.inMessage && beginCell().store(storeMessage(tx.inMessage)).endCell().hash().equals(inMsgHash)) return tx;
    }
    return undefined;
  });
}
