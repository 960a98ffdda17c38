// Which emulated transactions of a pending trace have landed. Below the root, an emulated message's hash differs
// from the landed one (created_lt and created_at are in the cell), so transactions are matched by their place in the
// tree instead: the path of message offsets (the message's created_lt minus its sender's lt) from the root, which the
// chain and the emulation share (the same key action ids use, src/index/actions/action-id.ts). The places of the
// landed ones are read from the index by queries/pending-places.ts.

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const big = (v: unknown): bigint | null => (typeof v === 'string' && /^\d{1,20}$/.test(v) ? BigInt(v) : null);

/** Place key of every transaction of a stored pending trace (its `trace` tree and `transactions` map), by hash. */
export function pendingPlaces(trace: Json): Map<string, string> {
  const txs = isObject(trace.transactions) ? trace.transactions : {};
  const out = new Map<string, string>();
  const stack: Array<{ node: unknown; key: string; parentLt: bigint | null }> = [
    { node: trace.trace, key: '', parentLt: null },
  ];
  while (stack.length > 0) {
    const { node, key, parentLt } = stack.pop()!;
    if (!isObject(node)) continue;
    const hash = String(node.tx_hash);
    const tx = txs[hash];
    if (!isObject(tx)) continue;
    let place = key;
    if (parentLt !== null) {
      const created = isObject(tx.in_msg) ? big(tx.in_msg.created_lt) : null;
      if (created === null) continue;
      place = `${key}/${created - parentLt}`;
    }
    out.set(hash, place);
    const lt = big(tx.lt);
    if (lt === null) continue;
    for (const c of Array.isArray(node.children) ? node.children : [])
      stack.push({ node: c, key: place, parentLt: lt });
  }
  return out;
}
