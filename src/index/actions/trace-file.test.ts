// Trace files: what a malformed one is refused for (named file and JSON path, exit 2 from the command, before any
// database work), and the command end to end on a real mainnet trace (vectors/actions) in its temporary PGlite.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasVectors, vectorPath } from '../../../test/helpers/vectors.ts';
import { classifyTraceFiles } from './classify-trace.ts';
import { parseLossless } from './lossless-json.ts';
import { parseTraceFile, TraceFileError } from './trace-file.ts';

const H = (c: string) => `${c.repeat(43)}=`;
const ADDR = `0:${'A'.repeat(64)}`;

interface FileRow {
  [k: string]: unknown;
  trace: Record<string, unknown>;
  transactions: (Record<string, unknown> & { messages: Record<string, unknown>[] })[];
  interfaces: Record<string, unknown>;
}

/** A minimal well-formed trace file: one transaction with an external inbound message. */
function minimal(): FileRow {
  return {
    kind: 'toncenter_trace_rows',
    trace_id: H('T'),
    trace: {
      trace_id: H('T'),
      external_hash: H('M'),
      mc_seqno_start: 10,
      mc_seqno_end: 10,
      start_lt: 100,
      end_lt: 100,
      state: 'complete',
      edges_: 1,
      nodes_: 1,
    },
    transactions: [
      {
        account: ADDR,
        hash: H('T'),
        lt: 100,
        block_seqno: 20,
        mc_block_seqno: 10,
        prev_trans_hash: H('P'),
        prev_trans_lt: 90,
        now: 1700000000,
        orig_status: 'active',
        end_status: 'active',
        total_fees: 5,
        account_state_hash_before: H('B'),
        account_state_hash_after: H('C'),
        descr: 'ord',
        aborted: false,
        destroyed: false,
        credit_first: true,
        is_tock: null,
        installed: null,
        compute_mode: 0,
        compute_exit_code: 0,
        compute_exit_arg: null,
        bounce: null,
        messages: [
          {
            msg_hash: H('M'),
            tx_hash: H('T'),
            tx_lt: 100,
            direction: 'in',
            source: null,
            destination: ADDR,
            value: null,
            fwd_fee: null,
            ihr_fee: null,
            created_lt: null,
            created_at: null,
            opcode: null,
            ihr_disabled: null,
            bounce: null,
            bounced: null,
            import_fee: 0,
            body_hash: null,
            init_state_hash: null,
            value_extra_currencies: {},
            message_content: null,
          },
        ],
      },
    ],
    interfaces: { [ADDR]: {} },
  };
}

function problem(text: string): string {
  try {
    parseTraceFile(text, 'f.json');
  } catch (e) {
    if (e instanceof TraceFileError) return e.problem;
    throw e;
  }
  return 'accepted';
}

const mutate = (f: (v: FileRow) => void) => {
  const v = minimal();
  f(v);
  return JSON.stringify(v);
};

describe('trace files', () => {
  it('reads a well-formed file', () => {
    const f = parseTraceFile(JSON.stringify(minimal()), 'f.json');
    expect(f.traceId).toBe(H('T'));
    expect(f.transactions[0]!.lt).toBe(100n);
    expect(f.transactions[0]!.messages[0]!.direction).toBe('in');
  });

  it('names the problem and where it is', () => {
    expect(problem('{')).toMatch(/^not JSON: unexpected end of JSON at offset 1/);
    expect(problem('[]')).toBe('$: expected an object, got an array');
    expect(problem(mutate((v) => delete (v as Record<string, unknown>).trace))).toBe('$.trace: missing');
    expect(problem(mutate((v) => (v.kind = 'other')))).toMatch(/^\$\.kind: expected 'toncenter_trace_rows'/);
    expect(problem(mutate((v) => (v.transactions = [])))).toBe('$.transactions: no transactions');
    expect(problem(mutate((v) => (v.transactions[0]!.account = '0:abc')))).toBe(
      "$.transactions[0].account: not a raw upper-case address: '0:abc'",
    );
    expect(problem(mutate((v) => (v.transactions[0]!.lt = 1.5)))).toBe(
      '$.transactions[0].lt: expected an integer, got number',
    );
    expect(problem(mutate((v) => (v.transactions[0]!.descr = 'weird')))).toMatch(
      /^\$\.transactions\[0\]\.descr: unexpected value 'weird'/,
    );
    expect(problem(mutate((v) => (v.transactions[0]!.messages[0]!.tx_hash = H('X'))))).toBe(
      "$.transactions[0].messages[0].tx_hash: is not its transaction's hash",
    );
    expect(
      problem(mutate((v) => (v.transactions[0]!.messages[0]!.message_content = { hash: H('Q'), body: 'nope' }))),
    ).toMatch(/^\$\.transactions\[0\]\.messages\[0\]\.message_content\.body: not a base64 BoC/);
    expect(problem(mutate((v) => (v.trace.trace_id = H('Z'))))).toBe(
      `$.trace.trace_id: differs from $.trace_id (${H('T')})`,
    );
    expect(problem(mutate((v) => (v.interfaces = { bad: {} })))).toMatch(/^\$\.interfaces key 'bad'/);
  });

  it('the command refuses a malformed file with exit 2 before touching a database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tongate-trace-file-'));
    try {
      const bad = join(dir, 'bad.json');
      await writeFile(
        bad,
        mutate((v) => delete v.transactions[0]!.messages[0]!.msg_hash),
      );
      const err: string[] = [];
      const code = await classifyTraceFiles({
        files: [bad],
        databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
        out: () => {},
        err: (l) => err.push(l),
      });
      expect(code).toBe(2);
      expect(err).toEqual([
        `tongate index classify-trace: malformed trace file ${bad}: $.transactions[0].messages[0].msg_hash: missing`,
      ]);
      const missing: string[] = [];
      expect(
        await classifyTraceFiles({ files: [join(dir, 'none.json')], out: () => {}, err: (l) => missing.push(l) }),
      ).toBe(2);
      expect(missing[0]).toMatch(/none\.json: no such file$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!hasVectors)('classify-trace on a mainnet trace (vectors/actions)', () => {
  const out: string[] = [];
  const err: string[] = [];
  let code: number;
  const file = hasVectors ? vectorPath('actions', 'traces', 'CFl6PQXQyJ4FQFj9YsZwblnCg3m8Po9wuiBmrR4zGz4=.json') : '';

  beforeAll(async () => {
    code = await classifyTraceFiles({ files: [file], out: (l) => out.push(l), err: (l) => err.push(l) });
  }, 120_000);

  it('prints one document with the actions in classifier names', async () => {
    expect(code, err.join('\n')).toBe(0);
    expect(err).toEqual([]);
    expect(out).toHaveLength(1);
    const doc = parseLossless(out[0]!) as { trace_id: string; actions: Record<string, unknown>[] };
    const src = parseLossless(await readFile(file, 'utf8')) as {
      trace_id: string;
      transactions: { hash: string; messages: Record<string, unknown>[] }[];
    };
    expect(doc.trace_id).toBe(src.trace_id);
    expect(doc.actions).toHaveLength(1);
    // The system's transfer to the config contract, from the file's one message.
    const m = src.transactions[0]!.messages[0]!;
    expect(doc.actions[0]).toMatchObject({
      type: 'ton_transfer',
      success: true,
      source: m.source,
      destination: m.destination,
      value: m.value,
      tx_hashes: [src.transactions[0]!.hash],
      ton_transfer_data: { content: null, encrypted: false },
    });
  });
});
