// Bytes that cross between threads: what may be transferred, and a Buffer over what arrived.

/**
 * Bytes that own their whole ArrayBuffer, so it can be transferred. Node's small Buffers are views into a shared
 * pool, and transferring that pool would detach every other Buffer in it.
 */
export function ownBytes(buf: Uint8Array): Uint8Array {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength && buf.buffer instanceof ArrayBuffer) return buf;
  const copy = new Uint8Array(buf.byteLength);
  copy.set(buf);
  return copy;
}

/** A Buffer view over received bytes (no copy). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
