// Issue 19: every case of shared/vectors/actions/cases.json (97 real mainnet traces, the actions toncenter's
// classifier gives them) through the path `tongate index classify-trace` takes (src/index/actions/trace-file.ts):
// the trace's rows and interfaces stored in one scratch PGlite database as the indexer stores them, assembled by our
// assembler, classified by the classify job, the actions read back and named as toncenter's classifier names them
// (classifier-names.ts).
//
// How a case is checked: for each expected action, the actions of its type are narrowed by its `selector` (a Jinja
// expression over `value`, evaluated here: paths, == / != against strings, integers (also 0x…) and None, `|length`,
// and/or); the expected `values` must then match one of them not already taken by another expected action of the
// case. Only the values a case names are asserted, recursively (an object's absent keys are not asserted); paths
// may be dotted with list indices (`jvault_claim_data.claimed_jettons[0]`); integers compare by value (49.0 = 49;
// the cases are read with exact big integers); an expected null also accepts a field we do not produce;
// `tx_hashes` and `accounts` compare as sets (toncenter's lists have no order: they follow neither lt nor address).
// Two cases of the source have YAML slips (values written under `value:`, or beside `values:`); as the README's
// format says, only `values` is asserted, so those keys are not.
//
// KNOWN_FAILURES IS A RATCHET, NOT A SKIP. Every case runs and is compared in full. A case listed there must still
// FAIL (the test fails when it passes: remove it from the list), and a case not listed must PASS. So the list can
// only shrink: fixing a matcher means deleting its line. Each line says why the case fails today.
//
// The same run checks the classifier-name mapping both ways on real actions: every details key our matchers wrote
// has exactly one classifier name, details -> classifier names -> details gives the details back, a generic field a
// details key mirrors equals the action's column, and toncenter's own expected values, read into details and back,
// come back unchanged wherever the mapping names them.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/index.ts';
import {
  actionToClassifierNames,
  type ClassifierDoc,
  classifierFromDetails,
  detailsFromClassifier,
  GENERIC_FIELDS,
  namesOf,
} from '../../src/index/actions/classifier-names.ts';
import { type LosslessJson, parseLossless, stringifyLossless } from '../../src/index/actions/lossless-json.ts';
import { readTraceFile, runTraceFile, type TraceFileResult } from '../../src/index/actions/trace-file.ts';
import type { Action } from '../../src/index/actions/types.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { hasVectors, vectorPath } from '../helpers/vectors.ts';

/** Cases known to fail today, `family/case name` -> why. A RATCHET: see the header. */
const KNOWN_FAILURES: Record<string, string> = {};

interface Expected {
  type: string;
  selector?: string;
  values: Record<string, LosslessJson>;
}

interface Case {
  family: string;
  name: string;
  key: string;
  traceId: string;
  expected: Expected[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function loadCases(): Case[] {
  if (!hasVectors) return [];
  const doc = parseLossless(readFileSync(vectorPath('actions', 'cases.json'), 'utf8'));
  if (!isObj(doc) || !isObj(doc.families)) throw new Error('cases.json: no families');
  const out: Case[] = [];
  for (const [family, cases] of Object.entries(doc.families)) {
    if (!isObj(cases)) throw new Error(`cases.json: family ${family} is not an object`);
    for (const [name, c] of Object.entries(cases)) {
      if (!isObj(c) || typeof c['trace-id'] !== 'string' || !Array.isArray(c['expected-actions'])) {
        throw new Error(`cases.json: ${family}/${name} is malformed`);
      }
      const expected = c['expected-actions'].map((a): Expected => {
        if (!isObj(a) || typeof a.type !== 'string')
          throw new Error(`cases.json: ${family}/${name}: action without type`);
        return {
          type: a.type,
          ...(typeof a.selector === 'string' ? { selector: a.selector } : {}),
          values: isObj(a.values) ? (a.values as Record<string, LosslessJson>) : {},
        };
      });
      out.push({ family, name, key: `${family}/${name}`, traceId: c['trace-id'], expected });
    }
  }
  return out;
}

// ---- values ----

type Step = string | number;

/** `a.b[0].c` as steps. */
function pathSteps(path: string): Step[] {
  const steps: Step[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) throw new Error(`unreadable path ${path}`);
    if (m[1]) steps.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) steps.push(Number(idx[1]));
  }
  return steps;
}

function at(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const s of pathSteps(path)) {
    if (typeof s === 'number') cur = Array.isArray(cur) ? cur[s] : undefined;
    else cur = isObj(cur) && Object.hasOwn(cur, s) ? cur[s] : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

const bigOf = (v: unknown): bigint | null =>
  typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : null;

const show = (v: unknown) => (v === undefined ? '(absent)' : stringifyLossless(v));

/** Differences between an expected value and ours (empty when it matches), with their paths. */
function compare(expected: unknown, actual: unknown, path: string, asSet = false): string[] {
  if (expected === null)
    return actual === null || actual === undefined ? [] : [`${path}: expected null, got ${show(actual)}`];
  const eb = bigOf(expected);
  if (eb !== null || typeof expected === 'number') {
    const ab = bigOf(actual);
    if (eb !== null && ab !== null && eb === ab) return [];
    if (typeof expected === 'number' && typeof actual === 'number' && expected === actual) return [];
    return [`${path}: expected ${show(expected)}, got ${show(actual)}`];
  }
  if (typeof expected === 'string' || typeof expected === 'boolean') {
    return expected === actual ? [] : [`${path}: expected ${show(expected)}, got ${show(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected a list ${show(expected)}, got ${show(actual)}`];
    if (asSet) {
      const want = new Set(expected.map((x) => stringifyLossless(x)));
      const have = new Set(actual.map((x) => stringifyLossless(x)));
      const missing = [...want].filter((x) => !have.has(x));
      const extra = [...have].filter((x) => !want.has(x));
      return missing.length === 0 && extra.length === 0
        ? []
        : [`${path}: as a set, missing ${missing.join(', ') || '-'}; unexpected ${extra.join(', ') || '-'}`];
    }
    if (expected.length !== actual.length) {
      return [`${path}: expected ${expected.length} items ${show(expected)}, got ${actual.length} ${show(actual)}`];
    }
    return expected.flatMap((x, i) => compare(x, actual[i], `${path}[${i}]`));
  }
  if (isObj(expected)) {
    if (!isObj(actual)) return [`${path}: expected an object, got ${show(actual)}`];
    return Object.entries(expected).flatMap(([k, x]) => compare(x, actual[k], `${path}.${k}`));
  }
  return [`${path}: unsupported expected value ${show(expected)}`];
}

const SET_FIELDS = new Set(['tx_hashes', 'accounts']);

function compareValues(values: Record<string, LosslessJson>, doc: ClassifierDoc): string[] {
  return Object.entries(values).flatMap(([path, want]) => compare(want, at(doc, path), path, SET_FIELDS.has(path)));
}

// ---- selectors: {{ value.a.b == 'x' and value.c != None }}, `|length`, integers and 0x… ----

function literal(text: string): unknown {
  const t = text.trim();
  if (t === 'None') return null;
  if (t === 'True') return true;
  if (t === 'False') return false;
  const q = /^'(.*)'$|^"(.*)"$/.exec(t);
  if (q) return q[1] ?? q[2];
  if (/^-?0x[0-9a-f]+$/i.test(t)) return BigInt(t.startsWith('-') ? `-${t.slice(1)}` : t);
  if (/^-?\d+$/.test(t)) return BigInt(t);
  throw new Error(`selector literal not understood: ${t}`);
}

function operand(text: string, doc: ClassifierDoc): unknown {
  const t = text.trim();
  const m = /^value((?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\|length)?$/.exec(t);
  if (!m) return literal(t);
  const v = m[1] ? at(doc, m[1].slice(1)) : doc;
  if (!m[2]) return v;
  return Array.isArray(v) || typeof v === 'string' ? BigInt(v.length) : null;
}

const sameValue = (a: unknown, b: unknown): boolean => {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  const x = bigOf(a);
  const y = bigOf(b);
  if (x !== null && y !== null) return x === y;
  return a === b;
};

function selects(selector: string, doc: ClassifierDoc): boolean {
  const m = /^\s*\{\{(.*)\}\}\s*$/s.exec(selector);
  if (!m) throw new Error(`selector not understood: ${selector}`);
  return m[1]!.split(/\s+or\s+/).some((conj) =>
    conj.split(/\s+and\s+/).every((cmp) => {
      const c = /^(.*?)\s*(==|!=)\s*(.*)$/.exec(cmp.trim());
      if (!c) throw new Error(`selector comparison not understood: ${cmp}`);
      const eq = sameValue(operand(c[1]!, doc), operand(c[3]!, doc));
      return c[2] === '==' ? eq : !eq;
    }),
  );
}

// ---- matching a case ----

interface Outcome {
  pass: boolean;
  problems: string[];
}

function check(c: Case, docs: ClassifierDoc[]): Outcome {
  const used = new Set<ClassifierDoc>();
  const problems: string[] = [];
  c.expected.forEach((e, i) => {
    const label = `expected action #${i + 1} (${e.type}${e.selector ? ` ${e.selector.trim()}` : ''})`;
    const candidates = docs.filter((d) => d.type === e.type && !used.has(d) && (!e.selector || selects(e.selector, d)));
    if (candidates.length === 0) {
      const types = docs.map((d) => d.type).join(', ') || 'none';
      problems.push(`${label}: no such action; ours: ${types}`);
      return;
    }
    const scored = candidates.map((d) => ({ d, diffs: compareValues(e.values, d) }));
    scored.sort((a, b) => a.diffs.length - b.diffs.length);
    const best = scored[0]!;
    if (best.diffs.length === 0) used.add(best.d);
    else problems.push(`${label}:\n      ${best.diffs.join('\n      ')}`);
  });
  return { pass: problems.length === 0, problems };
}

// ---- the mapping, both ways ----

function mappingProblems(a: Action): string[] {
  const out: string[] = [];
  const rows = namesOf(a.type);
  if (!rows) return [`${a.type}: no classifier names for this type`];
  const named = new Set(rows.map((r) => r.details));
  for (const k of Object.keys(a.details)) if (!named.has(k)) out.push(`${a.type}.details.${k}: no classifier name`);
  const doc = classifierFromDetails(a.type, a.details);
  const back = detailsFromClassifier(a.type, doc);
  const diff = compare(a.details, back, `${a.type}.details`);
  if (Object.keys(back).length !== Object.keys(a.details).length) diff.push(`${a.type}: round trip changed the keys`);
  out.push(...diff.map((d) => `round trip: ${d}`));
  const columns = actionToClassifierNames(a);
  for (const r of rows) {
    if (!Object.hasOwn(GENERIC_FIELDS, r.classifier) || !Object.hasOwn(a.details, r.details)) continue;
    const fromDetails = doc[r.classifier];
    if (!sameValue(fromDetails, columns[r.classifier])) {
      out.push(
        `${a.type}: details.${r.details} ${show(fromDetails)} is not the ${r.classifier} column ${show(columns[r.classifier])}`,
      );
    }
  }
  return out;
}

/** toncenter's values read into details and back: unchanged on every path the mapping names. */
function reverseProblems(e: Expected): string[] {
  const rows = namesOf(e.type);
  if (!rows) return [];
  const values = e.values as ClassifierDoc;
  const details = detailsFromClassifier(e.type, values);
  const again = classifierFromDetails(e.type, details);
  const out: string[] = [];
  for (const r of rows) {
    const want = at(values, r.classifier);
    if (want === undefined) continue;
    out.push(...compare(want, at(again, r.classifier), `${e.type}:${r.classifier}`));
  }
  return out;
}

// ---- the run ----

const cases = loadCases();
const results = new Map<string, TraceFileResult>();
const docsOf = new Map<string, ClassifierDoc[]>();
const outcomes = new Map<string, Outcome>();
let t: TestDatabase | undefined;

describe.skipIf(!hasVectors)('mainnet actions (shared/vectors/actions, issue 19)', () => {
  beforeAll(async () => {
    t = await setupDatabase('pglite');
    await migrate(t.db);
    for (const id of new Set(cases.map((c) => c.traceId))) {
      const file = await readTraceFile(vectorPath('actions', 'traces', `${id}.json`));
      const r = await runTraceFile(t.db, file);
      results.set(id, r);
      docsOf.set(id, r.actions.map(actionToClassifierNames));
    }
    for (const c of cases) outcomes.set(c.key, check(c, docsOf.get(c.traceId)!));
  }, 180_000);

  afterAll(async () => {
    await t?.cleanup();
    if (outcomes.size === 0) return;
    const byFamily = new Map<string, { pass: number; total: number }>();
    for (const c of cases) {
      const s = byFamily.get(c.family) ?? { pass: 0, total: 0 };
      s.total++;
      if (outcomes.get(c.key)?.pass) s.pass++;
      byFamily.set(c.family, s);
    }
    const passed = [...outcomes.values()].filter((o) => o.pass).length;
    const lines = [...byFamily].map(([f, s]) => `  ${f.padEnd(20)} ${s.pass}/${s.total}`);
    console.log(`mainnet actions: passed ${passed}/${cases.length}\n${lines.join('\n')}`);
  });

  it('has the 97 cases of the vectors, and the ratchet names only real cases', () => {
    expect(cases.length).toBe(97);
    const keys = new Set(cases.map((c) => c.key));
    expect(Object.keys(KNOWN_FAILURES).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('assembles every trace as toncenter did (same trace id, counters, state)', () => {
    const differences = [...results].flatMap(([id, r]) => r.assembly.differences.map((d) => `${id}: ${d}`));
    expect(differences).toEqual([]);
  });

  it('maps details to classifier names and back on every action of the 97 traces', () => {
    const problems = [...results.values()].flatMap((r) => r.actions.flatMap(mappingProblems));
    expect([...new Set(problems)]).toEqual([]);
  });

  it("reads toncenter's expected values into details and back unchanged", () => {
    const problems = cases.flatMap((c) => c.expected.flatMap((e) => reverseProblems(e).map((p) => `${c.key}: ${p}`)));
    expect(problems).toEqual([]);
  });

  for (const c of cases) {
    it(`${c.key}`, () => {
      const o = outcomes.get(c.key);
      expect(o, 'classified').toBeDefined();
      const known = KNOWN_FAILURES[c.key];
      if (known !== undefined) {
        // The ratchet: a listed case must still fail; once it passes, delete its line.
        expect(o!.pass, `${c.key} passes now: remove it from KNOWN_FAILURES (was: ${known})`).toBe(false);
      } else {
        expect(o!.problems, `${c.key}`).toEqual([]);
      }
    });
  }
});
