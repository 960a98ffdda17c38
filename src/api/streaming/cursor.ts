// Cursors of finalized events: where an event sits in the index's replay order (masterchain block, then the event's
// key within the block, then the notification within the event). Clients treat them as opaque strings: SSE `id:`
// lines and Last-Event-ID, the `cursor` field of WebSocket notifications and `resume_from`.

export interface Cursor {
  mcSeqno: number;
  /** The event's key within its block (index-feed.ts): ordered as the block's events are. */
  key: string;
  /** Which notification of the event (0: transactions or account_state_change, 1: actions or jettons_change, 2: trace). */
  part?: number;
}

const VERSION = 'c1';
const MAX_CURSOR_LENGTH = 512;

export function formatCursor(c: Cursor): string {
  return `${VERSION}.${c.mcSeqno}.${Buffer.from(c.key, 'utf8').toString('base64url')}.${c.part ?? 0}`;
}

/** The cursor a client sent back, or null when it is not one of ours. */
export function parseCursor(text: string): Cursor | null {
  if (text.length > MAX_CURSOR_LENGTH) return null;
  const m = /^c1\.(\d{1,10})\.([A-Za-z0-9_-]*)\.(\d)$/.exec(text.trim());
  if (!m) return null;
  const mcSeqno = Number(m[1]);
  if (!Number.isSafeInteger(mcSeqno) || mcSeqno > 0xffffffff) return null;
  return { mcSeqno, key: Buffer.from(m[2] as string, 'base64url').toString('utf8'), part: Number(m[3]) };
}

/** The cursor of one notification of an event. */
export function withPart(eventCursor: string, part: number): string {
  return `${eventCursor.slice(0, eventCursor.lastIndexOf('.'))}.${part}`;
}

/** Negative when a is before b in replay order. */
export function compareCursors(a: Cursor, b: Cursor): number {
  if (a.mcSeqno !== b.mcSeqno) return a.mcSeqno - b.mcSeqno;
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  return (a.part ?? 0) - (b.part ?? 0);
}
