// Message rows as v3 JSON (v3-api.md §4.3, ton-index-go models.Message): addresses raw, 64-bit values as
// strings, null where the message kind has no such field (external-in: no source, value or created_lt;
// external-out: no destination), opcode as "0x%08x" and its decoder name, body and StateInit as {hash, body, decoded}
// (the body decoded as /decode decodes it, v3-api.md §7.8; a StateInit is not decoded).
import type { Cell } from '@ton/core';
import { cellFromBase64, textComment } from '../../../ton/index.ts';
import { formatOpcode } from '../params.ts';
import type { Row } from '../sql-query.ts';
import { decodedCellJson, decodeOpcodeName } from './decode.ts';
import type { JsonObject } from './decode-json.ts';
import { str } from './values.ts';

/**
 * decoded_opcode: toncenter's decoder's name of the opcode (v3-api.md Appendix A), null for an opcode it cannot name
 * (ton-index-go leaves it null when ton-marker answers "unknown").
 */
export function opcodeName(op: number | null): string | null {
  if (op === null) return null;
  const name = decodeOpcodeName(op);
  return name === 'unknown' ? null : name;
}

/**
 * A body or payload cell as toncenter's message_content.decoded shows it: a text comment as its back-compat object
 * {"@type","comment","type"} (keys in Go's map order), anything else as /decode decodes it ({"@type":"empty_cell"}
 * for an empty cell), null when the decoder cannot read it, as toncenter reports such bodies.
 */
export function decodedBodyJson(cell: Cell): JsonObject | null {
  if (cell.bits.length >= 32 && cell.beginParse().preloadUint(32) === 0) {
    const comment = textComment(cell);
    if (comment !== null) return { '@type': 'text_comment', comment, type: 'text_comment' };
  }
  return decodedCellJson(cell);
}

/** message_content.decoded of a stored body BoC (read once here); null when the BoC cannot be read. */
function decodeBoc(boc: string): JsonObject | null {
  let cell: Cell;
  try {
    cell = cellFromBase64(boc);
  } catch {
    return null;
  }
  return decodedBodyJson(cell);
}

function content(hash: unknown, boc: unknown, decode: boolean) {
  // toncenter shows the object only when the content row exists (message_content null otherwise).
  if (typeof hash !== 'string' || typeof boc !== 'string') return null;
  return { hash, body: boc, decoded: decode ? decodeBoc(boc) : null };
}

export interface MessageTxHashes {
  /** Only /messages reports them: the receiving and the sending transaction. */
  inMsgTxHash?: string | null;
  outMsgTxHash?: string | null;
}

/** One message row (MESSAGE_COLUMNS, queries/message.ts) as toncenter's Message object, keys in its order. */
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
  out.message_content = content(r.body_hash, r.body_boc, true);
  out.init_state = content(r.init_state_hash, r.init_state_boc, false);
  if (r.msg_hash_norm) out.hash_norm = r.msg_hash_norm;
  return out;
}
