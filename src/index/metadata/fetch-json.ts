// One off-chain metadata document: an http(s) GET with a deadline and a size cap, parsed as JSON. Content URIs
// come from contract data anyone can write, so every failure (bad scheme, DNS, HTTP status, slow or endless body,
// invalid JSON) is a value, never a throw.
export type FetchFn = typeof fetch;

export interface FetchJsonOptions {
  fetch: FetchFn;
  /** Largest body accepted, in bytes; a longer body is cut off and refused. */
  maxBytes: number;
  /** Deadline for the whole request, headers and body. */
  timeoutMs: number;
  /** Gateway for ipfs:// URIs (e.g. https://ipfs.io); without it they are refused like any non-http scheme. */
  ipfsGateway?: string;
}

export type FetchJsonResult = { ok: true; url: string; json: unknown } | { ok: false; url: string; reason: string };

/** The URL to fetch for a content URI, or null when its scheme is not fetched. */
export function fetchableUrl(uri: string, ipfsGateway?: string): string | null {
  const text = uri.trim();
  if (ipfsGateway && /^ipfs:\/\//i.test(text)) return `${ipfsGateway.replace(/\/+$/, '')}/ipfs/${text.slice(7)}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
}

/** Reads at most `maxBytes` of a body; null when it is longer. */
async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return Buffer.concat(chunks, size);
      size += value.byteLength;
      if (size > maxBytes) return null;
      chunks.push(value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

export async function fetchJson(uri: string, o: FetchJsonOptions): Promise<FetchJsonResult> {
  const url = fetchableUrl(uri, o.ipfsGateway);
  if (!url) return { ok: false, url: uri, reason: 'not an http(s) URI' };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), o.timeoutMs);
  try {
    const res = await o.fetch(url, {
      signal: abort.signal,
      redirect: 'follow',
      headers: { accept: 'application/json' },
    });
    if (!res.ok) {
      res.body?.cancel().catch(() => {});
      return { ok: false, url, reason: `HTTP ${res.status}` };
    }
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > o.maxBytes || !res.body) {
      res.body?.cancel().catch(() => {});
      return { ok: false, url, reason: res.body ? `body of ${declared} bytes over ${o.maxBytes}` : 'no body' };
    }
    const bytes = await readCapped(res.body, o.maxBytes);
    if (!bytes) return { ok: false, url, reason: `body over ${o.maxBytes} bytes` };
    const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, '');
    try {
      return { ok: true, url, json: JSON.parse(text) };
    } catch {
      return { ok: false, url, reason: 'not JSON' };
    }
  } catch (e) {
    if (abort.signal.aborted) return { ok: false, url, reason: `no answer within ${o.timeoutMs} ms` };
    const cause = (e as { cause?: { code?: string } }).cause?.code;
    return { ok: false, url, reason: cause ?? (e as Error).message ?? String(e) };
  } finally {
    clearTimeout(timer);
  }
}
