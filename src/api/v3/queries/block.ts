// The blocks columns v3's block reads select (render/block.ts turns the rows into JSON).

/**
 * The columns every block query selects, from `blocks B`. prev_blocks is a blockid[] composite array, which
 * neither driver decodes: it is read as its text form and parsed by parsePrevBlocks (render/block.ts).
 */
export const BLOCK_COLUMNS = `B.workchain, B.shard, B.seqno, B.root_hash, B.file_hash, B.mc_block_workchain,
  B.mc_block_shard, B.mc_block_seqno, B.global_id, B.version, B.after_merge, B.before_split, B.after_split,
  B.want_merge, B.want_split, B.key_block, B.vert_seqno_incr, B.flags, B.gen_utime, B.start_lt, B.end_lt,
  B.validator_list_hash_short, B.gen_catchain_seqno, B.min_ref_mc_seqno, B.prev_key_block_seqno, B.vert_seqno,
  B.master_ref_seqno, B.rand_seed, B.created_by, B.tx_count, B.prev_blocks::text AS prev_blocks`;
