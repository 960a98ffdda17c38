// toncenter's streaming server fills decoded_opcode and message_content.decoded only in pending `transactions`
// events and in `trace` events; confirmed and finalized `transactions` events carry both as null, because that path
// skips its body decoder (../shared/specs/streaming.md §3.4). v3's renderer decodes every body, so the feeds hand
// `transactions` events copies without the decoded forms and keep the decoded ones for the `trace` map.
import type { Json } from './events.ts';

function undecodedMessage(m: Json): Json {
  const content = m.message_content as Json | null | undefined;
  return {
    ...m,
    decoded_opcode: null,
    ...(content ? { message_content: { ...content, decoded: null } } : {}),
  };
}

/** A v3 Transaction object as confirmed and finalized `transactions` events show it. */
export function withoutDecodedBodies(tx: Json): Json {
  const inMsg = tx.in_msg as Json | null | undefined;
  const outMsgs = tx.out_msgs as Json[] | null | undefined;
  return {
    ...tx,
    ...(inMsg ? { in_msg: undecodedMessage(inMsg) } : {}),
    ...(outMsgs ? { out_msgs: outMsgs.map(undecodedMessage) } : {}),
  };
}
