// The differential part of the ton-http-api oracle: the same request to our v2 server and to toncenter's own
// Python server, both answers compared field by field (`@extra` aside), and the differences matched against
// the allowed list in docs/v2-differences.md. Shared by test/oracles/http.test.ts and bench/v2-vs-reference.ts.
import { readFile } from 'node:fs/promises';

// biome-ignore lint/suspicious/noExplicitAny: answers are walked field by field
export type Json = any;

export interface Target {
  name: 'ours' | 'ref';
  /** Base URL the method names are appended to: `http://127.0.0.1:P/api/v2` or `http://127.0.0.1:Q`. */
  base: string;
}

export interface Answer {
  status: number;
  body: Json;
  ms: number;
}

/** A pooled connection the server closed while idle, before it read our request: nothing was answered. */
function idleClose(e: unknown): boolean {
  const code = (e as { cause?: { code?: string } })?.cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

/**
 * Sends one request. uvicorn (the reference) and node both close keep-alive connections after ~5 s idle, and a
 * request written as that timer fires is refused with "other side closed" on a loaded machine; such a request is
 * sent once more on a fresh connection. Any other failure, and a second close, are errors.
 */
export async function callTarget(t: Target, http: 'GET' | 'POST', method: string, params: Json): Promise<Answer> {
  try {
    return await sendOnce(t, http, method, params);
  } catch (e) {
    if (!idleClose(e)) throw e;
    return await sendOnce(t, http, method, params);
  }
}

async function sendOnce(t: Target, http: 'GET' | 'POST', method: string, params: Json): Promise<Answer> {
  const started = performance.now();
  let res: Response;
  if (http === 'GET') {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params as Record<string, unknown>)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const x of v) q.append(k, String(x));
      else q.append(k, String(v));
    }
    const qs = q.toString();
    res = await fetch(`${t.base}/${method}${qs ? `?${qs}` : ''}`, { signal: AbortSignal.timeout(30_000) });
  } else {
    res = await fetch(`${t.base}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(30_000),
    });
  }
  const text = await res.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, body, ms: performance.now() - started };
}

export type DiffKind = 'missing' | 'extra' | 'value' | 'status' | 'absent';

export interface Difference {
  endpoint: string;
  /** `result.last.seqno`, array items as `[]`: `result.transactions[].utime`; `status`, `error`, `rpc.id`. */
  path: string;
  kind: DiffKind;
  ours?: Json;
  ref?: Json;
  /** The request that showed it. */
  label: string;
}

const short = (v: Json) => {
  const s = JSON.stringify(v);
  return s === undefined ? undefined : s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** Field-by-field differences of two JSON values; `@extra` is skipped at every depth. */
export function diffJson(
  ours: Json,
  ref: Json,
  path: string,
  out: Array<Omit<Difference, 'endpoint' | 'label'>>,
): void {
  const isObj = (v: Json) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(ours) && isObj(ref)) {
    for (const k of new Set([...Object.keys(ours), ...Object.keys(ref)])) {
      if (k === '@extra') continue;
      const p = path ? `${path}.${k}` : k;
      if (!(k in ref)) out.push({ path: p, kind: 'extra', ours: short(ours[k]) });
      else if (!(k in ours)) out.push({ path: p, kind: 'missing', ref: short(ref[k]) });
      else diffJson(ours[k], ref[k], p, out);
    }
    return;
  }
  if (Array.isArray(ours) && Array.isArray(ref)) {
    if (ours.length !== ref.length) {
      out.push({ path: `${path}.length`, kind: 'value', ours: ours.length, ref: ref.length });
    }
    for (let i = 0; i < Math.min(ours.length, ref.length); i++) diffJson(ours[i], ref[i], `${path}[]`, out);
    return;
  }
  if (JSON.stringify(ours) !== JSON.stringify(ref)) {
    out.push({ path, kind: 'value', ours: short(ours), ref: short(ref) });
  }
}

export interface Case {
  /** Our method name (what the allowed list names). */
  endpoint: string;
  /** The reference's name when it differs (2.0 serves getShards as `shards`). */
  refEndpoint?: string;
  http: 'GET' | 'POST';
  params: Json;
  label: string;
  /** Not sent over JSON-RPC (requests with side effects are sent once per server). */
  noRpc?: boolean;
  /** The reference does not have this endpoint (2.1-only); checked to answer 404 there. */
  refAbsent?: boolean;
  /** Params per server and transport when they must differ (signed messages); `params` otherwise. */
  prepare?: (who: Target['name'], via: 'rest' | 'rpc') => Promise<Json>;
  /** Rewrites answers before the comparison (values that legitimately differ per request, checked here). */
  normalize?: (a: Answer, who: Target['name'], via: 'rest' | 'rpc') => void;
}

function compareAnswers(c: Case, ours: Answer, ref: Answer, prefix: string): Difference[] {
  const out: Array<Omit<Difference, 'endpoint' | 'label'>> = [];
  if (ours.status !== ref.status)
    out.push({ path: `${prefix}status`, kind: 'status', ours: ours.status, ref: ref.status });
  const o = ours.body;
  const r = ref.body;
  if (typeof o !== 'object' || typeof r !== 'object' || o === null || r === null) {
    out.push({ path: `${prefix}body`, kind: 'value', ours: short(o), ref: short(r) });
  } else if (o.ok === true && r.ok === true) {
    diffJson(o.result, r.result, 'result', out);
  } else {
    if (o.ok !== r.ok) out.push({ path: 'ok', kind: 'value', ours: o.ok, ref: r.ok });
    if (o.ok === false && r.ok === false) {
      if (o.code !== r.code) out.push({ path: 'code', kind: 'value', ours: o.code, ref: r.code });
      if (o.error !== r.error) out.push({ path: 'error', kind: 'value', ours: short(o.error), ref: short(r.error) });
    }
  }
  return out.map((d) => ({ ...d, endpoint: c.endpoint, label: c.label }));
}

export interface RunStats {
  /** Requests per endpoint (REST and JSON-RPC, on both servers, counted once per pair). */
  checked: Record<string, number>;
  differences: Difference[];
  /** Requests both servers refused (equal answers, so no difference): `endpoint (label): status error`. */
  bothFailed?: string[];
}

/** Sends every case to both servers (REST, then JSON-RPC) and collects the differences. */
export async function runCases(ours: Target, ref: Target, cases: Case[], stats: RunStats): Promise<void> {
  for (const c of cases) {
    const refName = c.refEndpoint ?? c.endpoint;
    const params = async (who: Target['name'], via: 'rest' | 'rpc') => (c.prepare ? c.prepare(who, via) : c.params);
    const [a, b] = await Promise.all([
      params('ours', 'rest').then((p) => callTarget(ours, c.http, c.endpoint, p)),
      params('ref', 'rest').then((p) => callTarget(ref, c.http, refName, p)),
    ]);
    stats.checked[c.endpoint] = (stats.checked[c.endpoint] ?? 0) + 1;
    if (c.refAbsent) {
      if (b.status !== 404 && b.status !== 405) {
        throw new Error(`${refName}: expected the reference to lack it (404), got ${b.status} ${short(b.body)}`);
      }
      stats.differences.push({ endpoint: c.endpoint, path: '', kind: 'absent', label: c.label, ours: a.status });
      if (a.status !== 200 && !/error|bad/.test(c.label)) {
        throw new Error(`${c.endpoint} (${c.label}): our server answered ${a.status} ${short(a.body)}`);
      }
      continue;
    }
    c.normalize?.(a, 'ours', 'rest');
    c.normalize?.(b, 'ref', 'rest');
    if (a.body?.ok === false && b.body?.ok === false) {
      stats.bothFailed = [
        ...(stats.bothFailed ?? []),
        `${c.endpoint} (${c.label}): ${b.status} ${short(b.body.error)}`,
      ];
    }
    stats.differences.push(...compareAnswers(c, a, b, ''));
    if (c.noRpc) continue;
    const rpc = (method: string, p: Json) => ({ jsonrpc: '2.0', id: 7, method, params: p });
    const [ra, rb] = await Promise.all([
      params('ours', 'rpc').then((p) => callTarget(ours, 'POST', 'jsonRPC', rpc(c.endpoint, p))),
      params('ref', 'rpc').then((p) => callTarget(ref, 'POST', 'jsonRPC', rpc(refName, p))),
    ]);
    stats.checked.jsonRPC = (stats.checked.jsonRPC ?? 0) + 1;
    c.normalize?.(ra, 'ours', 'rpc');
    c.normalize?.(rb, 'ref', 'rpc');
    const env: Array<Omit<Difference, 'endpoint' | 'label'>> = [];
    for (const k of ['id', 'jsonrpc']) {
      if (JSON.stringify(ra.body?.[k]) !== JSON.stringify(rb.body?.[k])) {
        env.push({ path: `rpc.${k}`, kind: 'value', ours: short(ra.body?.[k]), ref: short(rb.body?.[k]) });
      }
    }
    stats.differences.push(
      ...env.map((d) => ({ ...d, endpoint: c.endpoint, label: `${c.label} (JSON-RPC)` })),
      ...compareAnswers(c, ra, rb, 'rpc.').map((d) => ({ ...d, label: `${d.label} (JSON-RPC)` })),
    );
  }
}

export interface AllowedDifference {
  endpoint: string;
  path: string;
  kind: DiffKind;
  /** Which requests (their labels); `*` for all. */
  when: string;
  reason: string;
  /** Endpoint, path, kind and label as patterns (`*` = any run of characters). */
  match: RegExp;
}

const START = '<!-- allowed-differences:start -->';
const END = '<!-- allowed-differences:end -->';

/** The table between the markers of docs/v2-differences.md: `| endpoint | path | kind | case | reason |`. */
export async function loadAllowed(file: string): Promise<AllowedDifference[]> {
  const text = await readFile(file, 'utf8');
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${file}: expected a table between ${START} and ${END}`);
  const rows: AllowedDifference[] = [];
  for (const line of text.slice(from + START.length, to).split('\n')) {
    const t = line.trim();
    if (!t.startsWith('|') || /^\|\s*-/.test(t) || /^\|\s*endpoint\s*\|/.test(t)) continue;
    const cells = t
      .slice(1, t.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((x) => x.trim().replace(/^`|`$/g, ''));
    if (cells.length < 5) throw new Error(`${file}: a row needs endpoint | path | kind | case | reason: ${t}`);
    const [endpoint, path, kind, when, ...reason] = cells as [string, string, string, string, ...string[]];
    if (!['missing', 'extra', 'value', 'status', 'absent'].includes(kind)) {
      throw new Error(`${file}: unknown kind '${kind}' in: ${t}`);
    }
    const pat = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
    rows.push({
      endpoint,
      path,
      kind: kind as DiffKind,
      when,
      reason: reason.join('|').trim(),
      match: new RegExp(`^${pat(endpoint)} ${pat(path === '-' ? '' : path)} ${kind} ${pat(when)}$`),
    });
  }
  return rows;
}

export interface Verdict {
  /** Differences no row explains: each fails the oracle. */
  unexplained: Difference[];
  /** Distinct explained differences (endpoint path kind) with how often each was seen. */
  explained: Map<string, number>;
  /** Rows that matched nothing in this run (data-dependent rows may legitimately stay unused). */
  unused: AllowedDifference[];
}

export function judge(differences: Difference[], allowed: AllowedDifference[]): Verdict {
  const unexplained: Difference[] = [];
  const explained = new Map<string, number>();
  const used = new Set<AllowedDifference>();
  for (const d of differences) {
    // JSON-RPC answers are held to the same rows as REST ones: `rpc.result.x` is explained by `result.x`.
    const path = d.path.startsWith('rpc.') && !/^rpc\.(id|jsonrpc)$/.test(d.path) ? d.path.slice(4) : d.path;
    const key = `${d.endpoint} ${path} ${d.kind}`;
    const label = d.label.replace(/ \(JSON-RPC\)$/, '');
    const row = allowed.find((a) => a.match.test(`${key} ${label}`));
    if (!row) unexplained.push(d);
    else {
      used.add(row);
      explained.set(key, (explained.get(key) ?? 0) + 1);
    }
  }
  return { unexplained, explained, unused: allowed.filter((a) => !used.has(a)) };
}
