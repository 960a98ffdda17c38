// The reference page at /api/v3/reference: the OpenAPI document rendered to plain HTML on the server,
// self-contained (inline CSS, no script, no CDN) so it works on an offline machine.
import type { OpenApiDocument } from './document.ts';
import type { Schema } from './primitives.ts';

const esc = (s: unknown): string => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const REF = '#/components/schemas/';

function refName(s: Schema): string | undefined {
  const r = s.$ref;
  return typeof r === 'string' && r.startsWith(REF) ? r.slice(REF.length) : undefined;
}

/** A one-line type: `string`, `integer (int32)`, `array of Block`, `map of string`, `| null`. */
function typeHtml(s: Schema | undefined): string {
  if (!s) return 'any';
  const name = refName(s);
  let t: string;
  if (name) t = `<a href="#schema-${esc(name)}">${esc(name)}</a>`;
  else if (s.type === 'array') t = `array of ${typeHtml(s.items as Schema)}`;
  else if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object')
    t = `map of ${typeHtml(s.additionalProperties as Schema)}`;
  else if (s.type === 'object' && !s.properties) t = 'object';
  else if (s.type === 'object') t = 'object';
  else t = esc(s.type ?? 'any') + (s.format ? ` (${esc(s.format)})` : '');
  if (Array.isArray(s.enum)) t += `: ${s.enum.map((v) => `<code>${esc(v)}</code>`).join(' | ')}`;
  if (s.default !== undefined) t += `, default <code>${esc(s.default)}</code>`;
  if (s.nullable) t += ' | null';
  return t;
}

/** The fields of an object schema as a table (nested objects inline, one level). */
function fieldsHtml(s: Schema): string {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required ?? []) as string[]);
  const names = Object.keys(props);
  if (names.length === 0) return `<p>${typeHtml(s)}${s.description ? ` — ${esc(s.description)}` : ''}</p>`;
  const rows = names.map((n) => {
    const p = props[n] as Schema;
    const nested = p.type === 'object' && p.properties ? fieldsHtml(p) : '';
    return `<tr><td><code>${esc(n)}</code>${required.has(n) ? '' : ' <span class="opt">optional</span>'}</td><td>${typeHtml(p)}</td><td>${esc(p.description ?? '')}${nested}</td></tr>`;
  });
  return `<table><tr><th>field</th><th>type</th><th>meaning</th></tr>${rows.join('')}</table>`;
}

export function renderDocsPage(doc: OpenApiDocument, documentUrl: string): string {
  const info = doc.info as { title: string; version: string; description: string };
  const ops: Array<{ method: string; path: string; op: Record<string, unknown> }> = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) ops.push({ method, path, op });
  }
  const anchor = (method: string, path: string) => `op-${method}-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const tags = (doc.tags as Array<{ name: string; description: string }>) ?? [];
  const nav = tags
    .map((t) => {
      const items = ops
        .filter((o) => (o.op.tags as string[])[0] === t.name)
        .map(
          (o) =>
            `<li><a href="#${anchor(o.method, o.path)}"><span class="m">${esc(o.method.toUpperCase())}</span> ${esc(o.path)}</a></li>`,
        );
      return `<h3>${esc(t.name)}</h3><p>${esc(t.description)}</p><ul>${items.join('')}</ul>`;
    })
    .join('');
  const sections = ops
    .map(({ method, path, op }) => {
      const params = (op.parameters as Array<Record<string, unknown>>) ?? [];
      const paramRows = params
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${esc(p.in)}</td><td>${typeHtml(p.schema as Schema)}</td><td>${esc(p.description ?? '')}</td></tr>`,
        )
        .join('');
      const responses = op.responses as Record<
        string,
        { description: string; content?: Record<string, { schema: Schema }> }
      >;
      const ok = responses['200']?.content?.['application/json']?.schema;
      const body = (op.requestBody as { content: Record<string, { schema: Schema }> } | undefined)?.content[
        'application/json'
      ]?.schema;
      const errors = Object.entries(responses)
        .filter(([status]) => status !== '200')
        .map(([status, r]) => `<li><code>${esc(status)}</code> ${esc(r.description)}</li>`)
        .join('');
      return `<section id="${anchor(method, path)}">
<h2><span class="m">${esc(method.toUpperCase())}</span> ${esc(path)}</h2>
<p><b>${esc(op.summary)}</b>. ${esc(op.description)}</p>
${params.length ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>meaning</th></tr>${paramRows}</table>` : body ? '' : '<p>No parameters.</p>'}
${body ? `<h4>Request body (JSON)</h4><p>${typeHtml(body)}</p>` : ''}
<h4>Response 200</h4><p>${typeHtml(ok)}</p>
<h4>Errors</h4><p>Body <code>{"error": "…"}</code>:</p><ul>${errors}</ul>
</section>`;
    })
    .join('\n');
  const schemas = Object.entries(doc.components.schemas)
    .map(
      ([name, s]) =>
        `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3>${s.description ? `<p>${esc(s.description)}</p>` : ''}${fieldsHtml(s)}</section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title)} ${esc(info.version)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0;display:flex;color:#1d2330}
nav{width:300px;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f4f6f9;padding:12px 16px;box-sizing:border-box}
nav ul{list-style:none;padding:0;margin:0 0 8px}nav li{margin:2px 0}nav a{text-decoration:none;color:#1d2330}
main{padding:16px 28px;max-width:1100px;min-width:0}section{border-top:1px solid #dde2ea;padding:6px 0 14px}
table{border-collapse:collapse;width:100%;margin:6px 0}td,th{border:1px solid #dde2ea;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f4f6f9}.m{font:bold 12px monospace;background:#2b6cb0;color:#fff;border-radius:3px;padding:1px 5px}
.req{color:#b00020;font-size:12px}.opt{color:#718096;font-size:12px}code{font-family:ui-monospace,monospace}
</style></head>
<body><nav><h2>${esc(info.title)}</h2><p>version ${esc(info.version)} · <a href="${esc(documentUrl)}">openapi.json</a></p>${nav}<h3><a href="#schemas">Schemas</a></h3></nav>
<main><h1>${esc(info.title)}</h1><p>${esc(info.description)}</p>
<p>API key: header <code>X-API-Key</code> or query parameter <code>api_key</code>.</p>
${sections}
<h1 id="schemas">Schemas</h1>
${schemas}
</main></body></html>
`;
}
