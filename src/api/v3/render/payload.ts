// The payload cells jetton and NFT events carry (custom_payload, forward_payload: base64 BoCs) and their
// decoded_* twins. toncenter runs the same decoder on a payload as on a message body (v3-api.md §2.7, §7.8), so a
// payload decodes exactly as message_content.decoded does.
import type { Cell } from '@ton/core';
import { cellFromBase64 } from '../../../ton/index.ts';
import type { JsonObject } from './decode-json.ts';
import { decodedBodyJson } from './message.ts';

/** The decoded form of a payload BoC, or null (no payload, an unreadable BoC, or a body the decoder cannot read). */
export function decodedPayload(boc: unknown): JsonObject | null {
  if (typeof boc !== 'string' || boc === '') return null;
  let cell: Cell;
  try {
    cell = cellFromBase64(boc);
  } catch {
    return null;
  }
  return decodedBodyJson(cell);
}
