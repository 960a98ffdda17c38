// Block rows as v3 JSON (v3-api.md §4.1): 64-bit numbers as strings, shard as unsigned hex, hashes base64.
import type { Row } from '../../../db/index.ts';
import { formatShard } from '../params.ts';

export const BLOCK_COLUMNS = `workchain, shard, seqno, root_hash, file_hash, mc_block_workchain, mc_block_shard,
  mc_block_seqno, global_id, version, after_merge, before_split, after_split, want_merge, want_split, key_block,
  vert_seqno_incr, flags, gen_utime, start_lt, end_lt, validator_list_hash_short, gen_catchain_seqno,
  min_ref_mc_seqno, prev_key_block_seqno, vert_seqno, master_ref_seqno, rand_seed, created_by, tx_count,
  prev_blocks`;

export function blockJson(r: Row): Record<string, unknown> {
  return {
    workchain: r.workchain,
    shard: formatShard(r.shard as bigint),
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
    gen_utime: String(r.gen_utime),
    start_lt: String(r.start_lt),
    end_lt: String(r.end_lt),
    validator_list_hash_short: r.validator_list_hash_short,
    gen_catchain_seqno: r.gen_catchain_seqno,
    min_ref_mc_seqno: r.min_ref_mc_seqno,
    prev_key_block_seqno: r.prev_key_block_seqno,
    vert_seqno: r.vert_seqno,
    master_ref_seqno: r.master_ref_seqno,
    rand_seed: r.rand_seed,
    created_by: r.created_by,
    tx_count: r.tx_count,
    masterchain_block_ref:
      r.mc_block_seqno === null
        ? null
        : { workchain: r.mc_block_workchain, shard: formatShard(r.mc_block_shard as bigint), seqno: r.mc_block_seqno },
    prev_blocks: r.prev_blocks,
  };
}
