// Messages the API tests sign and send themselves, and the hashes they expect back: built here from what the test
// signed (never read back from our server), shared so every test derives them the same way.
import {
  type Address,
  beginCell,
  type Cell,
  internal,
  type Message,
  SendMode,
  storeMessage,
  type WalletContractV4,
} from '@ton/ton';

/** TEP-467's normalized hash of an external-in message to `dest` carrying `body`: no source, import_fee 0, no init, body by ref. */
export function normalizedHash(dest: Address, body: Cell): Buffer {
  return beginCell()
    .storeUint(2, 2)
    .storeUint(0, 2)
    .storeAddress(dest)
    .storeCoins(0)
    .storeBit(false)
    .storeBit(true)
    .storeRef(body)
    .endCell()
    .hash();
}

/** normalizedHash of a parsed message, base64; null unless it is external-in. */
export function normalizedHashOf(m: Message): string | null {
  return m.info.type === 'external-in' ? normalizedHash(m.info.dest, m.body).toString('base64') : null;
}

/** An external-in message cell to `dest` with `body` (no StateInit). */
export function externalMessage(dest: Address, body: Cell): Cell {
  return beginCell()
    .store(storeMessage({ info: { type: 'external-in', dest, importFee: 0n }, body }))
    .endCell();
}

/** A signed v4 transfer body (what estimateFee takes) and its external message (what sendBoc takes). */
export function v4Transfer(
  w: { contract: unknown; address: Address; secretKey: Buffer },
  seqno: number,
  to: Address,
  value: bigint,
  comment: string,
  secretKey = w.secretKey,
): { body: Cell; message: Cell } {
  const body = (w.contract as WalletContractV4).createTransfer({
    seqno,
    secretKey,
    sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
    messages: [internal({ to, value, bounce: false, body: comment })],
  });
  return { body, message: externalMessage(w.address, body) };
}
