// Block rows as v3 JSON (v3-api.md §4.1, ton-index-go models.Block): 64-bit numbers as strings, shard as
// unsigned hex, hashes base64, masterchain_block_ref and prev_blocks as BlockId objects.
import type { Row } from '../sql-query.ts';
import { type BlockIdJson, blockIdJson, shardHex, str } from './values.ts';

/** `{"(0,-9223372036854775808,41)","(…)"}` (PostgreSQL's text of a blockid[]) -> BlockId objects, in order. */
export function parsePrevBlocks(text: unknown): BlockIdJson[] {
  if (typeof text !== 'string') return [];
  const out: BlockIdJson[] = [];
  for (const m of text.matchAll(/\((-?\d+),(-?\d+),(-?\d+)\)/g)) out.push(blockIdJson(m[1], BigInt(m[2] ?? 0), m[3]));
  return out;
}

export function blockJson(r: Row): Record<string, unknown> {
  return {
    workchain: r.workchain,
    shard: shardHex(r.shard),
    seqno: r.seqno,
    root_hash: r.root_hash,
    file_hash: r.file_hash,
    global_id: r.global_id,
    version: r.version,
    after_merge: r.after_merge,
    before_split: r.before_split,
    after_split: r.after_split,
    want_merge: r.want_merge,
    want_split: r.want_split,
    key_block: r.key_block,
    vert_seqno_incr: r.vert_seqno_incr,
    flags: r.flags,
    gen_utime: str(r.gen_utime),
    start_lt: str(r.start_lt),
    end_lt: str(r.end_lt),
    validator_list_hash_short: r.validator_list_hash_short,
    gen_catchain_seqno: r.gen_catchain_seqno,
    min_ref_mc_seqno: r.min_ref_mc_seqno,
    prev_key_block_seqno: r.prev_key_block_seqno,
    vert_seqno: r.vert_seqno,
    master_ref_seqno: r.master_ref_seqno,
    rand_seed: r.rand_seed,
    created_by: r.created_by,
    tx_count: r.tx_count,
    masterchain_block_ref: blockIdJson(r.mc_block_workchain, r.mc_block_shard, r.mc_block_seqno),
    prev_blocks: parsePrevBlocks(r.prev_blocks),
  };
}
