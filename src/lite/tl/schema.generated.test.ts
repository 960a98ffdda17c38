// The generated schema: reproducible from lite_api.tl, and every constructor id agrees with independent sources
// (the ids listed in ton-libs.md §2.7, ton-lite-client's old generated schema, and a crc32 computed here).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateLiteTl } from '../../../scripts/gen-lite-tl.ts';
import { hasVectors } from '../../../test/helpers/vectors.ts';
import { TL_SCHEMA, tlConstructorId } from './index.ts';
import { readTheirSchema, schemaPath } from './test-helpers.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..', '..');
const generatedPath = join(here, 'schema.generated.ts');

// An implementation independent of the generator's table-driven one: bitwise, reflected 0xedb88320. Node's
// zlib.crc32 (Node >= 20.15) is preferred when present; both are checked against the standard check value.
function crc32Bitwise(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return (c ^ 0xffffffff) >>> 0;
}
const zlibCrc = (zlib as { crc32?: (d: Buffer) => number }).crc32;
const crc32 = (s: string) => (zlibCrc ? zlibCrc(Buffer.from(s)) >>> 0 : crc32Bitwise(Buffer.from(s)));

/**
 * Declarations of lite_api.tl read independently of the generator: comments dropped, split at ';', section
 * markers skipped; the hashed text drops the explicit `#id` and the characters ( ) { }, whitespace collapsed.
 */
function declarations(text: string): Array<{ name: string; explicit?: number; normalized: string; builtin: boolean }> {
  const body = text
    .split('\n')
    .map((l) => l.replace(/\/\/.*$/, ''))
    .filter((l) => !/^\s*---\w+---\s*$/.test(l))
    .join(' ');
  return body
    .split(';')
    .map((d) => d.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((d) => {
      const [head] = d.split(' ');
      const [name, explicit] = head!.split('#');
      const normalized = [name, ...d.split(' ').slice(1)]
        .join(' ')
        .replace(/[(){}]/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      const builtin = /^[a-z]\w*$/.test(name!) && !name!.includes('.');
      return { name: name!, explicit: explicit ? Number.parseInt(explicit, 16) : undefined, normalized, builtin };
    });
}

describe.skipIf(!hasVectors)('schema.generated.ts', () => {
  const schemaText = readFileSync(schemaPath(), 'utf8');

  it('is exactly what the generator makes of lite_api.tl (nobody edited it by hand)', () => {
    expect(generateLiteTl(schemaText, 'lite_api.tl')).toBe(readFileSync(generatedPath, 'utf8'));
  });

  it('the generator CLI checks the committed file and reports a stale one with exit code 1', () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/gen-lite-tl.ts', schemaPath(), ...args], {
        cwd: repoRoot,
        encoding: 'utf8',
      });
    const ok = run(['--check']);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);

    const dir = mkdtempSync(join(tmpdir(), 'gen-lite-tl-'));
    try {
      const stale = join(dir, 'schema.generated.ts');
      writeFileSync(stale, `${readFileSync(generatedPath, 'utf8')}// edited by hand\n`);
      const bad = run(['--check', '--out', stale]);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/out of date/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the crc32 used here is the IEEE one (standard check value)', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32Bitwise(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('every constructor and function of lite_api.tl has the id computed here from its line', () => {
    const decls = declarations(schemaText).filter((d) => !d.builtin);
    expect(decls.map((d) => d.name)).toEqual(TL_SCHEMA.map((c) => c.name));
    for (const d of decls) {
      const expected = d.explicit ?? crc32(d.normalized);
      expect({ name: d.name, id: tlConstructorId(d.name) }).toEqual({ name: d.name, id: expected });
    }
    // the explicit ids in the file really differ from the crc (so honouring them matters)
    const explicit = decls.filter((d) => d.explicit !== undefined);
    expect(explicit.map((d) => d.name).sort()).toEqual([
      'liteServer.getValidatorStats',
      'liteServer.signatureSet.ordinary',
      'liteServer.transactionId',
    ]);
    for (const d of explicit) expect(crc32(d.normalized)).not.toBe(d.explicit);
  });

  it("TL built-ins declared in the schema have TL's well-known ids", () => {
    for (const d of declarations(schemaText).filter((x) => x.builtin && !x.normalized.includes('?')))
      expect({ name: d.name, id: tlConstructorId(d.name) }).toEqual({ name: d.name, id: crc32(d.normalized) });
    // Bool values and vector as every TL implementation hard-codes them (task brief; td/tl)
    expect(tlConstructorId('boolTrue')).toBe(0x997275b5);
    expect(tlConstructorId('boolFalse')).toBe(0xbc799737);
    expect(tlConstructorId('vector')).toBe(0x1cb5c415);
  });

  it('matches the ids listed in ton-libs.md §2.7', () => {
    // copied from ../shared/specs/ton-libs.md §2.7 (only the entries that lite_api.tl declares)
    const listed: Record<string, number> = {
      'adnl.message.query': 0xb48bf97a,
      'adnl.message.answer': 0x0fac8416,
      'liteServer.query': 0x798c06df,
      'liteServer.queryPrefix': 0x72d3e686,
      'liteServer.waitMasterchainSeqno': 0xbaeab892,
      'liteServer.error': 0xbba9e148,
      'liteServer.getMasterchainInfo': 0x89b5e62e,
      'liteServer.getTime': 0x16ad5a34,
      'liteServer.transactionId': 0xb12f65af,
      'liteServer.signatureSet.ordinary': 0xf644a6e6,
    };
    for (const [name, id] of Object.entries(listed)) expect({ name, id: tlConstructorId(name) }).toEqual({ name, id });
  });

  it("matches ton-lite-client's generated schema wherever its (older) TL line is unchanged", () => {
    const theirs = readTheirSchema();
    const ours = new Map(TL_SCHEMA.map((c) => [c.name, c]));
    const same: string[] = [];
    const differing: Record<string, string> = {};
    for (const t of theirs.values()) {
      const o = ours.get(t.kind);
      const oursFields = o?.fields.map((f) => f.name).join(',');
      if (o && oursFields === t.fields.join(',') && o.id === t.id) {
        same.push(t.kind);
        continue;
      }
      differing[t.kind] = o
        ? `ids 0x${t.id?.toString(16)} / 0x${o.id.toString(16)}, fields ${t.fields.join(',')} / ${oursFields}`
        : `absent from lite_api.tl; id 0x${t.id?.toString(16)}`;
    }
    // Every difference, explained:
    // - liteServer.transactionId gained `metadata:mode.8?liteServer.transactionMetadata`; the schema pins the old id
    //   with an explicit #b12f65af, so the id is unchanged (objects without bit 8 stay wire-compatible).
    // - liteServer.signatureSet was renamed liteServer.signatureSet.ordinary#f644a6e6 (same fields, explicit old id)
    //   when liteServer.signatureSet.simplex was added.
    // - liteServer.getValidatorStats: same fields, but ton-tl's generator ignores explicit ids and hashed the line
    //   *with* its '#091a58bc' suffix, so ton-lite-client sends 0xe7253699, which no liteserver knows
    //   (ton-libs.md §1.1 records the mismatch).
    expect(differing).toEqual({
      'liteServer.transactionId':
        'ids 0xb12f65af / 0xb12f65af, fields mode,account,lt,hash / mode,account,lt,hash,metadata',
      'liteServer.signatureSet': 'absent from lite_api.tl; id 0xf644a6e6',
      'liteServer.getValidatorStats':
        'ids 0xe7253699 / 0x91a58bc, fields mode,id,limit,startAfter,modifiedAfter / mode,id,limit,startAfter,modifiedAfter',
    });
    expect(tlConstructorId('liteServer.signatureSet.ordinary')).toBe(theirs.get('liteServer.signatureSet')!.id);
    const getValidatorStats = schemaText.split('\n').find((l) => l.startsWith('liteServer.getValidatorStats#'))!;
    expect(crc32(getValidatorStats.replace(/;.*$/, '').trim())).toBe(theirs.get('liteServer.getValidatorStats')!.id);
    // the comparison covers most of the schema: all of ton-lite-client's constructors but the three above
    expect(same.length).toBe(theirs.size - 3);
    expect(same.length).toBeGreaterThan(55);
  });
});
