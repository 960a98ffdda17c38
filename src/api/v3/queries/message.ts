// The messages columns v3's message reads select, with the joins of their bodies (render/message.ts turns the rows
// into JSON).

/**
 * The message columns renderers read, from `messages M`, with the body and StateInit BoCs joined from
 * message_contents as `B` and `I` (callers write the joins).
 */
export const MESSAGE_COLUMNS = `M.msg_hash, M.source, M.destination, M.value, M.value_extra_currencies, M.fwd_fee,
  M.ihr_fee, M.extra_flags, M.created_lt, M.created_at, M.opcode, M.ihr_disabled, M.bounce, M.bounced, M.import_fee,
  M.body_hash, M.init_state_hash, M.msg_hash_norm, B.body AS body_boc, I.body AS init_state_boc`;

/** The joins MESSAGE_COLUMNS needs. */
export const MESSAGE_CONTENT_JOINS = `LEFT JOIN message_contents B ON B.hash = M.body_hash
  LEFT JOIN message_contents I ON I.hash = M.init_state_hash`;
