// Generates src/lite/tl/schema.generated.ts from lite_api.tl: per constructor and function its TL line, constructor
// id, TypeScript type and a schema table that src/lite/tl/codec.ts walks. The output is committed (the repo has no
// build step) and a test re-runs this generator to prove nobody edited it by hand, so the output must be
// deterministic and already in biome's format.
//
//   node --import tsx scripts/gen-lite-tl.ts [schema.tl] [--out file] [--check] [--stdout]
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tlId } from '../src/adnl/index.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_SCHEMA = resolve(repoRoot, '..', 'shared', 'ton-schema', 'lite_api.tl');
export const DEFAULT_OUT = resolve(repoRoot, 'src', 'lite', 'tl', 'schema.generated.ts');

const LINE_WIDTH = 120;

// Declarations TL itself provides; the codec handles them natively, they get no TypeScript type.
const BUILTIN_NAMES = new Set([
  'int',
  'long',
  'double',
  'string',
  'object',
  'function',
  'bytes',
  'true',
  'boolTrue',
  'boolFalse',
  'vector',
  'int128',
  'int256',
]);
const PRIMITIVE_FIELD_TYPES = new Set(['int', '#', 'long', 'double', 'int128', 'int256', 'bytes', 'string', 'Bool']);

type TypeRef = string | { bare: string } | { boxed: string } | { vector: TypeRef; boxed?: true };

interface ParsedField {
  name: string;
  tl: string;
  type: TypeRef;
  flag?: { field: string; bit: number };
}

interface ParsedConstructor {
  name: string;
  id: number;
  explicitId: boolean;
  kind: 'type' | 'function';
  type: string;
  line: number;
  tl: string;
  normalized: string;
  fields: ParsedField[];
}

export interface ParsedSchema {
  constructors: ParsedConstructor[];
  builtinIds: Array<{ name: string; id: number }>;
}

export class SchemaError extends Error {}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

/**
 * The text TL hashes: the declaration without its `#id`, without `(`, `)`, `{`, `}` and `;`, whitespace collapsed
 * (so `vector {t:Type} # [ t ] = Vector t` hashes as `vector t:Type # [ t ] = Vector t` = 0x1cb5c415).
 */
export function normalizeTlLine(decl: string): string {
  return decl
    .replace(/^(\S+?)#[0-9a-fA-F]{1,8}(?=\s|$)/, '$1')
    .replace(/[(){};]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function camelCase(tlName: string): string {
  return tlName.replace(/_+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `liteServer.nonfinal.candidateId` -> `LiteServerNonfinalCandidateId`. */
export function pascalCase(tlName: string): string {
  return tlName
    .split('.')
    .map((part) => {
      const c = camelCase(part);
      return c.charAt(0).toUpperCase() + c.slice(1);
    })
    .join('');
}

function isBoxedName(name: string): boolean {
  const last = name.slice(name.lastIndexOf('.') + 1);
  return /^[A-Z]/.test(last);
}

/** Splits on whitespace but keeps `( ... )` groups as one token. */
function tokenize(text: string, where: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') {
      depth--;
      if (depth < 0) throw new SchemaError(`${where}: unbalanced ')'`);
    }
    if (/\s/.test(ch) && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (depth !== 0) throw new SchemaError(`${where}: unbalanced '('`);
  if (cur) out.push(cur);
  return out;
}

function parseTypeExpr(expr: string, where: string): TypeRef {
  const paren = /^\((.*)\)$/.exec(expr);
  if (paren) {
    const parts = paren[1]!.trim().split(/\s+/);
    if (parts.length === 2 && (parts[0] === 'vector' || parts[0] === 'Vector')) {
      const of = parseTypeExpr(parts[1]!, where);
      if (of === 'true') throw new SchemaError(`${where}: a vector of 'true' has no wire form`);
      return parts[0] === 'Vector' ? { vector: of, boxed: true } : { vector: of };
    }
    throw new SchemaError(`${where}: unsupported type expression '${expr}'`);
  }
  if (!/^[A-Za-z#][A-Za-z0-9_.]*$/.test(expr)) throw new SchemaError(`${where}: unsupported type '${expr}'`);
  if (PRIMITIVE_FIELD_TYPES.has(expr) || expr === 'true') return expr;
  if (expr === 'Int' || expr === 'Long' || expr === 'String' || expr === 'Bytes' || expr === 'Int256')
    throw new SchemaError(`${where}: boxed primitive '${expr}' is not supported`);
  if (expr === 'Object' || expr === 'Function' || expr === 'object' || expr === 'function' || expr === 'Type')
    throw new SchemaError(`${where}: a field of type '${expr}' cannot be encoded from the schema alone`);
  return isBoxedName(expr) ? { boxed: expr } : { bare: expr };
}

/** Parses lite_api.tl text into constructors (types and functions) and the ids of TL's own built-ins. */
export function parseTlSchema(text: string, fileLabel = 'lite_api.tl'): ParsedSchema {
  // Declarations end at ';' and may span lines; '---functions---' switches section; '//' starts a comment.
  const lines = text.split('\n');
  const decls: Array<{ text: string; line: number; section: 'type' | 'function' }> = [];
  let section: 'type' | 'function' = 'type';
  let buf = '';
  let startLine = 0;
  lines.forEach((raw, i) => {
    let rest = raw.replace(/\/\/.*$/, '');
    const marker = /^\s*---(\w+)---\s*$/.exec(rest);
    if (marker) {
      if (buf.trim()) throw new SchemaError(`${fileLabel}:${i + 1}: section marker inside an unterminated declaration`);
      if (marker[1] === 'functions') section = 'function';
      else if (marker[1] === 'types') section = 'type';
      else throw new SchemaError(`${fileLabel}:${i + 1}: unknown section '${marker[1]}'`);
      return;
    }
    while (rest.length > 0) {
      const semi = rest.indexOf(';');
      const piece = semi < 0 ? rest : rest.slice(0, semi);
      if (!buf.trim() && piece.trim()) startLine = i + 1;
      buf += `${piece} `;
      if (semi < 0) break;
      if (buf.trim()) decls.push({ text: buf.replace(/\s+/g, ' ').trim(), line: startLine, section });
      buf = '';
      rest = rest.slice(semi + 1);
    }
  });
  if (buf.trim()) throw new SchemaError(`${fileLabel}:${startLine}: declaration without ';'`);

  const constructors: ParsedConstructor[] = [];
  const builtinIds: Array<{ name: string; id: number }> = [];
  for (const d of decls) {
    const where = `${fileLabel}:${d.line}`;
    const eq = d.text.lastIndexOf('=');
    if (eq < 0) throw new SchemaError(`${where}: no '=' in '${d.text}'`);
    const left = tokenize(d.text.slice(0, eq).trim(), where);
    const result = d.text.slice(eq + 1).trim();
    const head = /^([A-Za-z][A-Za-z0-9_.]*)(?:#([0-9a-fA-F]{1,8}))?$/.exec(left[0] ?? '');
    if (!head) throw new SchemaError(`${where}: bad constructor name '${left[0] ?? ''}'`);
    const name = head[1]!;
    const normalized = normalizeTlLine(d.text);
    // an explicit #id, else crc32 (IEEE) of the normalised line, the one implementation src/adnl also uses
    const id = head[2] !== undefined ? Number.parseInt(head[2], 16) >>> 0 : tlId(normalized);

    if (BUILTIN_NAMES.has(name)) {
      // `int ? = Int;` declares a built-in with no constructor of its own (no id).
      if (left[1] !== '?') builtinIds.push({ name, id });
      continue;
    }
    if (!/^[A-Za-z][A-Za-z0-9_.]*$/.test(result) || !isBoxedName(result))
      throw new SchemaError(`${where}: result type must be one boxed type name, got '${result}'`);

    const fields: ParsedField[] = [];
    for (const arg of left.slice(1)) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*):(.+)$/.exec(arg);
      if (!m) throw new SchemaError(`${where}: unsupported argument '${arg}'`);
      const tlName = m[1]!;
      let typeText = m[2]!;
      let flag: ParsedField['flag'];
      const cond = /^([A-Za-z_][A-Za-z0-9_]*)\.(\d+)\?(.+)$/.exec(typeText);
      if (cond) {
        const flagField = fields.find((f) => f.tl === cond[1]);
        if (flagField?.type !== '#')
          throw new SchemaError(`${where}: '${arg}' refers to '${cond[1]}', which is not an earlier '#' field`);
        const bit = Number(cond[2]);
        if (bit > 31) throw new SchemaError(`${where}: '${arg}' uses bit ${bit} of a 32-bit flags field`);
        flag = { field: flagField.name, bit };
        typeText = cond[3]!;
      }
      const type = parseTypeExpr(typeText, `${where} field '${tlName}'`);
      if (type === 'true' && !flag) throw new SchemaError(`${where}: '${arg}' is 'true' without a flag`);
      const field: ParsedField = { name: camelCase(tlName), tl: tlName, type };
      if (flag) field.flag = flag;
      if (fields.some((f) => f.name === field.name || f.tl === tlName))
        throw new SchemaError(`${where}: duplicate field '${tlName}'`);
      if (field.name === '_') throw new SchemaError(`${where}: a field may not be called '_'`);
      fields.push(field);
    }
    constructors.push({
      name,
      id,
      explicitId: head[2] !== undefined,
      kind: d.section,
      type: result,
      line: d.line,
      tl: d.text,
      normalized,
      fields,
    });
  }
  validate(constructors, builtinIds, fileLabel);
  return { constructors, builtinIds };
}

function validate(cs: ParsedConstructor[], builtins: ParsedSchema['builtinIds'], fileLabel: string): void {
  const byName = new Map<string, ParsedConstructor>();
  const byId = new Map<number, string>();
  const byPascal = new Map<string, string>();
  for (const b of builtins) byId.set(b.id, b.name);
  for (const c of cs) {
    if (byName.has(c.name)) throw new SchemaError(`${fileLabel}:${c.line}: constructor '${c.name}' declared twice`);
    byName.set(c.name, c);
    const other = byId.get(c.id);
    if (other) throw new SchemaError(`${fileLabel}:${c.line}: '${c.name}' has the same id as '${other}'`);
    byId.set(c.id, c.name);
    const pascal = pascalCase(c.name);
    const clash = byPascal.get(pascal);
    if (clash) throw new SchemaError(`${fileLabel}:${c.line}: '${c.name}' and '${clash}' both map to ${pascal}`);
    byPascal.set(pascal, c.name);
  }
  const typeNames = new Set(cs.filter((c) => c.kind === 'type').map((c) => c.type));
  for (const t of typeNames) {
    const members = cs.filter((c) => c.kind === 'type' && c.type === t);
    const owner = byPascal.get(pascalCase(t));
    if (owner && !(members.length === 1 && members[0]!.name === owner))
      throw new SchemaError(`${fileLabel}: type '${t}' and constructor '${owner}' both map to ${pascalCase(t)}`);
  }
  const check = (ref: TypeRef, where: string): void => {
    if (typeof ref === 'string') return;
    if ('vector' in ref) {
      check(ref.vector, where);
      return;
    }
    if ('bare' in ref) {
      const target = byName.get(ref.bare);
      if (target?.kind !== 'type') throw new SchemaError(`${where}: unknown bare type '${ref.bare}'`);
      return;
    }
    if (!typeNames.has(ref.boxed)) throw new SchemaError(`${where}: unknown boxed type '${ref.boxed}'`);
  };
  for (const c of cs) {
    for (const f of c.fields) check(f.type, `${fileLabel}:${c.line} ${c.name}.${f.tl}`);
    if (c.kind === 'function' && c.type !== 'Object' && !typeNames.has(c.type))
      throw new SchemaError(`${fileLabel}:${c.line}: function result '${c.type}' is not a declared type`);
  }
  // Bare nesting must terminate, or the codec would recurse forever.
  const visiting = new Set<string>();
  const walk = (name: string, path: string[]): void => {
    if (visiting.has(name)) throw new SchemaError(`${fileLabel}: bare types nest recursively: ${path.join(' -> ')}`);
    visiting.add(name);
    for (const f of byName.get(name)!.fields) {
      let t = f.type;
      while (typeof t !== 'string' && 'vector' in t) t = t.vector;
      if (typeof t !== 'string' && 'bare' in t) walk(t.bare, [...path, t.bare]);
    }
    visiting.delete(name);
  };
  for (const c of cs) walk(c.name, [c.name]);
}

// ---------------------------------------------------------------------------------------------------------------
// Emitting: a small printer that lays data out exactly as biome (prettier rules, width 120) would.

class Raw {
  constructor(readonly text: string) {}
}
type Lit = string | number | boolean | Raw | Lit[] | { [k: string]: Lit | undefined };

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function keyText(k: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : quote(k);
}

function entries(o: { [k: string]: Lit | undefined }): Array<[string, Lit]> {
  return Object.entries(o).filter((e): e is [string, Lit] => e[1] !== undefined);
}

function flat(v: Lit): string {
  if (v instanceof Raw) return v.text;
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(flat).join(', ')}]`;
  const es = entries(v);
  return es.length === 0 ? '{}' : `{ ${es.map(([k, x]) => `${keyText(k)}: ${flat(x)}`).join(', ')} }`;
}

/** Prettier breaks an array of 2+ elements when every element is an object (or array) with 2+ entries. */
function forcedBreak(v: Lit[]): boolean {
  return (
    v.length > 1 &&
    v.every((e) =>
      Array.isArray(e)
        ? e.length > 1
        : typeof e === 'object' && !(e instanceof Raw) && entries(e as { [k: string]: Lit }).length > 1,
    )
  );
}

function fmt(v: Lit, indent: number, used: number, suffix: number): string {
  const one = flat(v);
  const isArr = Array.isArray(v);
  const breakable = isArr ? v.length > 0 : typeof v === 'object' && !(v instanceof Raw) && entries(v).length > 0;
  if (!breakable) return one;
  if (!(isArr && forcedBreak(v)) && used + one.length + suffix <= LINE_WIDTH) return one;
  const pad = ' '.repeat(indent + 2);
  if (isArr) {
    const items = v.map((e) => `${pad}${fmt(e, indent + 2, indent + 2, 1)},\n`);
    return `[\n${items.join('')}${' '.repeat(indent)}]`;
  }
  const items = entries(v as { [k: string]: Lit }).map(([k, x]) => {
    const lead = `${keyText(k)}: `;
    return `${pad}${lead}${fmt(x, indent + 2, indent + 2 + lead.length, 1)},\n`;
  });
  return `{\n${items.join('')}${' '.repeat(indent)}}`;
}

function unionType(prefix: string, members: string[], indent = 0): string {
  const one = `${prefix} ${members.join(' | ')};`;
  if (indent + one.length <= LINE_WIDTH) return one;
  return `${prefix}\n${members.map((m) => `${' '.repeat(indent + 2)}| ${m}`).join('\n')};`;
}

function hex(id: number): string {
  return `0x${id.toString(16).padStart(8, '0')}`;
}

function tsType(ref: TypeRef): string {
  if (typeof ref === 'string') {
    switch (ref) {
      case 'int':
      case '#':
      case 'double':
        return 'number';
      case 'long':
        return 'bigint';
      case 'int128':
      case 'int256':
      case 'bytes':
        return 'Buffer';
      case 'string':
        return 'string';
      case 'Bool':
      case 'true':
        return 'boolean';
    }
    throw new SchemaError(`no TypeScript type for '${ref}'`);
  }
  if ('vector' in ref) {
    const inner = tsType(ref.vector);
    return /^[A-Za-z0-9_]+$/.test(inner) ? `${inner}[]` : `Array<${inner}>`;
  }
  if ('bare' in ref) return `TlBare<${pascalCase(ref.bare)}>`;
  return pascalCase(ref.boxed);
}

function refLit(ref: TypeRef): Lit {
  if (typeof ref === 'string') return ref;
  if ('vector' in ref) return ref.boxed ? { vector: refLit(ref.vector), boxed: true } : { vector: refLit(ref.vector) };
  return 'bare' in ref ? { bare: ref.bare } : { boxed: ref.boxed };
}

/** Renders the whole generated module for the given schema text. */
export function generateLiteTl(text: string, fileLabel = 'lite_api.tl'): string {
  const { constructors, builtinIds } = parseTlSchema(text, fileLabel);
  const sha = createHash('sha256').update(text).digest('hex');
  const types = constructors.filter((c) => c.kind === 'type');
  const functions = constructors.filter((c) => c.kind === 'function');
  const typeNames = [...new Set(types.map((c) => c.type))];
  const membersOf = (t: string) => types.filter((c) => c.type === t).map((c) => pascalCase(c.name));
  const constructorPascals = new Set(constructors.map((c) => pascalCase(c.name)));
  const resultTs = (t: string) => (t === 'Object' ? 'TlObject' : pascalCase(t));

  const out: string[] = [];
  out.push(
    `// Generated by scripts/gen-lite-tl.ts from ${fileLabel} (sha256 ${sha}).\n` +
      '// Do not edit: change the schema or the generator and run `node --import tsx scripts/gen-lite-tl.ts`.\n' +
      '// Each type carries its TL line, the line number in the schema and its constructor id (explicit #id or crc32).\n',
  );
  out.push("import type { TlBare, TlConstructorSchema } from './schema-types.ts';\n");

  for (const c of constructors) {
    const idNote = c.explicitId ? `${hex(c.id)} (explicit)` : `${hex(c.id)} = crc32('${c.normalized}')`;
    const lines = [`// ${fileLabel}:${c.line} ${c.tl};`, `// id ${idNote}`];
    lines.push(`export interface ${pascalCase(c.name)} {`, `  _: '${c.name}';`);
    for (const f of c.fields) {
      const optional = f.flag && f.type !== 'true' ? '?' : '';
      lines.push(`  ${f.name}${optional}: ${tsType(f.type)};`);
    }
    lines.push('}\n');
    out.push(lines.join('\n'));
  }

  const aliasLines: string[] = [];
  for (const t of typeNames) {
    const p = pascalCase(t);
    if (constructorPascals.has(p)) continue; // single-constructor type: the constructor's interface is the type
    aliasLines.push(unionType(`export type ${p} =`, membersOf(t)));
  }
  if (aliasLines.length > 0)
    out.push(`// Boxed types with more than one constructor (or a name of their own).\n${aliasLines.join('\n')}\n`);

  out.push(
    unionType(
      'export type TlTypeObject =',
      types.map((c) => pascalCase(c.name)),
    ),
  );
  out.push(
    `${unionType(
      'export type TlFunctionObject =',
      functions.map((c) => pascalCase(c.name)),
    )}\n`,
  );
  out.push('/** Every lite_api object: what encodeTl takes and decodeTl returns. */');
  out.push('export type TlObject = TlTypeObject | TlFunctionObject;\n');

  const mapInterface = (doc: string, name: string, rows: Array<[string, string]>) =>
    `/** ${doc} */\nexport interface ${name} {\n${rows.map(([k, v]) => `  ${quote(k)}: ${v};`).join('\n')}\n}\n`;
  out.push(
    mapInterface(
      'Constructor name -> its object type.',
      'TlObjectByName',
      constructors.map((c) => [c.name, pascalCase(c.name)]),
    ),
  );
  out.push(
    mapInterface(
      'Boxed type name -> the union of its constructors.',
      'TlTypeByName',
      typeNames.map((t) => [t, membersOf(t).join(' | ')]),
    ),
  );
  out.push(
    mapInterface(
      'Function name -> the object a liteserver answers with (or liteServer.error).',
      'TlFunctionResults',
      functions.map((c) => [c.name, resultTs(c.type)]),
    ),
  );

  const builtinLit: { [k: string]: Lit } = {};
  for (const b of builtinIds) builtinLit[b.name] = new Raw(hex(b.id));
  out.push('/** Ids of TL built-ins declared in the schema (Bool values, vector, ...). */');
  out.push(
    `export const TL_BUILTIN_IDS = ${fmt(builtinLit, 0, 'export const TL_BUILTIN_IDS = '.length, ' as const;'.length)} as const;\n`,
  );

  const table: Lit[] = constructors.map((c) => ({
    name: c.name,
    id: new Raw(hex(c.id)),
    kind: c.kind,
    type: c.type,
    line: c.line,
    tl: c.tl,
    fields: c.fields.map((f) => ({
      name: f.name,
      tl: f.tl,
      type: refLit(f.type),
      flag: f.flag ? { field: f.flag.field, bit: f.flag.bit } : undefined,
    })),
  }));
  out.push('/** The table codec.ts walks: every constructor (types, then functions) in schema order. */');
  const head = 'export const TL_SCHEMA: readonly TlConstructorSchema[] = ';
  out.push(`${head}${fmt(table, 0, head.length, 1)};`);
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------------------------
// CLI

const HELP = `Usage: node --import tsx scripts/gen-lite-tl.ts [schema.tl] [options]

Generates src/lite/tl/schema.generated.ts (TypeScript types, constructor ids and the codec's schema table)
from TON's lite_api.tl.

Arguments:
  schema.tl        the TL schema to read (default: ../shared/ton-schema/lite_api.tl beside the repo)

Options:
  --out <file>     where to write (default: src/lite/tl/schema.generated.ts)
  --check          do not write; exit 1 if the file on disk differs from what would be generated
  --stdout         print the generated module instead of writing it
  -h, --help       show this help

Exit codes: 0 success, 1 --check found a difference, 2 bad usage or an unsupported schema.
`;

function main(argv: string[]): number {
  let schemaPath: string | undefined;
  let outPath = DEFAULT_OUT;
  let check = false;
  let toStdout = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-h' || a === '--help') {
      process.stdout.write(HELP);
      return 0;
    }
    if (a === '--check') check = true;
    else if (a === '--stdout') toStdout = true;
    else if (a === '--out') {
      const v = argv[++i];
      if (!v) {
        process.stderr.write('gen-lite-tl: --out needs a file name\n');
        return 2;
      }
      outPath = resolve(v);
    } else if (a.startsWith('-')) {
      process.stderr.write(`gen-lite-tl: unknown option ${a}\n${HELP}`);
      return 2;
    } else if (schemaPath === undefined) schemaPath = resolve(a);
    else {
      process.stderr.write(`gen-lite-tl: unexpected argument ${a}\n`);
      return 2;
    }
  }
  const source = schemaPath ?? DEFAULT_SCHEMA;
  let generated: string;
  try {
    generated = generateLiteTl(readFileSync(source, 'utf8'), basename(source));
  } catch (e) {
    process.stderr.write(`gen-lite-tl: ${source}: ${(e as Error).message}\n`);
    return 2;
  }
  if (toStdout) {
    process.stdout.write(generated);
    return 0;
  }
  if (check) {
    let current = '';
    try {
      current = readFileSync(outPath, 'utf8');
    } catch {
      // a missing file is a difference
    }
    if (current === generated) return 0;
    process.stderr.write(`gen-lite-tl: ${outPath} is out of date; run: node --import tsx scripts/gen-lite-tl.ts\n`);
    return 1;
  }
  writeFileSync(outPath, generated);
  process.stdout.write(`gen-lite-tl: wrote ${outPath}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
