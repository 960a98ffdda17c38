// Message rows as v3 JSON (v3-api.md §4.3, ton-index-go models.Message): addresses raw, 64-bit values as
// strings, null where the message kind has no such field (external-in: no source, value or created_lt;
// external-out: no destination), opcode as "0x%08x", body and StateInit as {hash, body, decoded}.
import { Cell } from '@ton/core';
import type { Row } from '../../../db/index.ts';
import { cellFromBase64, textComment } from '../../../ton/index.ts';
import { formatOpcode } from '../params.ts';
import { str } from './values.ts';

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

/**
 * decoded_opcode names for the standard opcodes, as toncenter's decoder (ton-marker, v3-api.md Appendix A)
 * reports them; where a tag has several names the one toncenter's own example shows wins (Appendix C:
 * jetton_transfer, jetton_notify). Interim: the full decoder comes with /decode (issue 10), and until then
 * other opcodes report null, as toncenter does for opcodes its decoder does not know.
 */
const OPCODE_NAMES: ReadonlyMap<number, string> = new Map([
  [0x00000000, 'text_comment'],
  [0x2167da4b, 'encrypted_text_comment'],
  [0x0f8a7ea5, 'jetton_transfer'],
  [0x178d4519, 'jetton_internal_transfer'],
  [0x7362d09c, 'jetton_notify'],
  [0xd53276db, 'excess'],
  // (unconfirmed) 0x595f07bc is also `burn`; the jetton_ name is taken as for transfer.
  [0x595f07bc, 'jetton_burn'],
  [0x7bdd97de, 'jetton_burn_notification'],
  [0x642b7d07, 'jetton_mint'],
  [0x5fcc3d14, 'nft_transfer'],
  [0x05138d91, 'nft_ownership_assigned'],
  [0x2fcb26a2, 'get_static_data'],
  [0x8b771735, 'report_static_data'],
  [0x693d3950, 'get_royalty_params'],
  [0xa8cb00ad, 'report_royalty_params'],
  [0x7369676e, 'w5_external_signed_request'],
  [0x73696e74, 'w5_internal_signed_request'],
  [0x6578746e, 'w5_extension_action_request'],
  [0xae42e5a4, 'highload_v3_internal_request'],
  [0xffffffff, 'bounce'],
]);

export function opcodeName(op: number | null): string | null {
  return op === null ? null : (OPCODE_NAMES.get(op >>> 0) ?? null);
}

/** Hash of the empty cell: bodies of plain transfers. */
const EMPTY_CELL_HASH = new Cell().hash().toString('base64');

/**
 * message_content.decoded: toncenter's decoder gives {"@type":"empty_cell"} for an empty body and, for a
 * text comment, the back-compat object {"@type","comment","type"} (keys in Go's map order); other bodies
 * need the full decoder (issue 10) and are null, as toncenter reports bodies its decoder cannot parse.
 */
export function decodeBody(hash: string, boc: string, opcode: number | null): Record<string, unknown> | null {
  if (hash === EMPTY_CELL_HASH) return { '@type': 'empty_cell' };
  if (opcode !== 0) return null;
  let comment: string | null = null;
  try {
    comment = textComment(cellFromBase64(boc));
  } catch {
    return null;
  }
  return comment === null ? null : { '@type': 'text_comment', comment, type: 'text_comment' };
}

function content(hash: unknown, boc: unknown, opcode: number | null, decode: boolean) {
  // toncenter shows the object only when the content row exists (message_content null otherwise).
  if (typeof hash !== 'string' || typeof boc !== 'string') return null;
  return { hash, body: boc, decoded: decode ? decodeBody(hash, boc, opcode) : null };
}

export interface MessageTxHashes {
  /** Only /messages reports them: the receiving and the sending transaction. */
  inMsgTxHash?: string | null;
  outMsgTxHash?: string | null;
}

/** One message row (MESSAGE_COLUMNS) as toncenter's Message object, keys in its order. */
export function messageJson(r: Row, tx: MessageTxHashes = {}): Record<string, unknown> {
  const opcode = r.opcode === null || r.opcode === undefined ? null : Number(r.opcode);
  const out: Record<string, unknown> = {
    hash: r.msg_hash,
    source: r.source ?? null,
    destination: r.destination ?? null,
    value: str(r.value),
    value_extra_currencies: r.value_extra_currencies ?? null,
    fwd_fee: str(r.fwd_fee),
    ihr_fee: str(r.ihr_fee),
    extra_flags: str(r.extra_flags),
    created_lt: str(r.created_lt),
    created_at: str(r.created_at),
    opcode: formatOpcode(opcode),
    decoded_opcode: opcodeName(opcode),
    ihr_disabled: r.ihr_disabled ?? null,
    bounce: r.bounce ?? null,
    bounced: r.bounced ?? null,
    import_fee: str(r.import_fee),
  };
  if (tx.inMsgTxHash) out.in_msg_tx_hash = tx.inMsgTxHash;
  if (tx.outMsgTxHash) out.out_msg_tx_hash = tx.outMsgTxHash;
  out.message_content = content(r.body_hash, r.body_boc, opcode, true);
  out.init_state = content(r.init_state_hash, r.init_state_boc, null, false);
  if (r.msg_hash_norm) out.hash_norm = r.msg_hash_norm;
  return out;
}
