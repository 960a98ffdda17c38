// Which transactions of a pending trace have landed, read from the index: their places in the tree, the key
// render/pending-places.ts computes for the emulated ones.
import type { Queryable } from '../../../db/index.ts';

/**
 * Place keys of the transactions already indexed for the trace of external message `traceKey` (normalized hash)
 * or `extHash`; empty when none landed.
 */
export async function landedPlaces(db: Queryable, traceKey: string, extHash: string): Promise<Set<string>> {
  const t = await db.query<{ trace_id: string }>(
    'SELECT trace_id FROM traces WHERE external_hash_norm = $1 OR external_hash = $2 LIMIT 1',
    [traceKey, extHash],
  );
  const traceId = t.rows[0]?.trace_id;
  if (!traceId) return new Set();
  const rows = await db.query<{
    hash: string;
    lt: string;
    direction: string;
    msg_hash: string | null;
    created_lt: string | null;
  }>(
    `SELECT t.hash, t.lt::text AS lt, m.direction, m.msg_hash, m.created_lt::text AS created_lt
       FROM transactions t LEFT JOIN messages m ON m.tx_hash = t.hash AND m.tx_lt = t.lt
      WHERE t.trace_id = $1`,
    [traceId],
  );
  const lt = new Map<string, bigint>();
  const inOf = new Map<string, { msg: string; created: bigint | null }>();
  const sender = new Map<string, string>();
  for (const r of rows.rows) {
    lt.set(r.hash, BigInt(r.lt));
    if (!r.msg_hash) continue;
    if (r.direction === 'in')
      inOf.set(r.hash, { msg: r.msg_hash, created: r.created_lt === null ? null : BigInt(r.created_lt) });
    else sender.set(r.msg_hash, r.hash);
  }
  const places = new Map<string, string | null>();
  const placeOf = (hash: string, depth = 0): string | null => {
    if (places.has(hash)) return places.get(hash)!;
    if (depth > 10_000) return null;
    const inMsg = inOf.get(hash);
    const parent = inMsg ? sender.get(inMsg.msg) : undefined;
    let place: string | null = '';
    if (parent !== undefined) {
      const up = placeOf(parent, depth + 1);
      const plt = lt.get(parent);
      place = up === null || plt === undefined || inMsg?.created == null ? null : `${up}/${inMsg.created - plt}`;
    }
    places.set(hash, place);
    return place;
  };
  const out = new Set<string>();
  for (const h of lt.keys()) {
    const p = placeOf(h);
    if (p !== null) out.add(p);
  }
  return out;
}
