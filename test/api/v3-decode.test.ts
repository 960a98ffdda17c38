// GET and POST /api/v3/decode (v3-api.md §3.10) over real HTTP: real mainnet message bodies from ../shared/vectors
// (the decoded values their sources assert, or a second reader's) and the inbound bodies of real transactions,
// checked against what the same transactions sent (the chain says what the body meant). Opcode names come from
// v3-api.md Appendix A; limits, bad input and the nesting depth from §3.10. Every 200 is validated against the
// public v3 OpenAPI document and against our own /api/v3/openapi.json. The endpoint reads no table, so one
// database kind (PGlite) is enough.
import { Address, beginCell, Cell, internal, loadTransaction, storeMessageRelaxed, type Transaction } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiServer, buildApiServer } from '../../src/api/build.ts';
import { migrate } from '../../src/db/index.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { validateAgainstDocument, validateV3 } from '../helpers/openapi-validator.ts';
import { hasVectors, loadVector, loadVectors } from '../helpers/vectors.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are walked field by field
type Json = any;

interface MessageVector {
  boc_base64: string;
  expected: Json;
  verification: { decoded?: Json };
}

interface TxVector {
  boc_base64: string;
}

const raw = (a: string) => Address.parse(a).toRawString().toUpperCase();
const hexUp = (h: string) => h.toUpperCase();
const PATH = '/api/v3/decode';

let t: TestDatabase;
let server: ApiServer;
let base: string;
/** Our own /api/v3/openapi.json. */
let ownDoc: Json;

beforeAll(async () => {
  t = await setupDatabase('pglite');
  await migrate(t.db);
  server = await buildApiServer({ db: t.db });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const a = server.app.server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  ownDoc = await (await fetch(`${base}/api/v3/openapi.json`)).json();
}, 120_000);
afterAll(async () => {
  await server?.close();
  await t?.cleanup();
});

function checkDocumented(method: 'get' | 'post', body: Json): void {
  expect(validateV3(method, PATH, 200, body), 'public v3 OpenAPI document').toEqual([]);
  expect(validateAgainstDocument(ownDoc, method, PATH, 200, body), 'our openapi.json').toEqual([]);
}

async function answer(res: Response, method: 'get' | 'post'): Promise<{ status: number; body: Json }> {
  const body = (await res.json()) as Json;
  if (res.status === 200) checkDocumented(method, body);
  else expect(body, `${res.status} body`).toEqual({ error: expect.any(String) });
  return { status: res.status, body };
}

async function get(query: string): Promise<{ status: number; body: Json }> {
  return answer(await fetch(`${base}${PATH}?${query}`), 'get');
}

async function post(payload: unknown, contentType = 'application/json'): Promise<{ status: number; body: Json }> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return answer(await fetch(base + PATH, { method: 'POST', headers: { 'content-type': contentType }, body }), 'post');
}

async function decodeOne(boc: string): Promise<Json> {
  const r = await post({ bodies: [boc] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.opcodes).toEqual([]);
  return r.body.bodies[0];
}

const q = (name: string, values: string[]) => values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');

describe('GET/POST /api/v3/decode: opcodes', () => {
  // Names from v3-api.md Appendix A (ton-marker's constructor names).
  it('reads hex with or without 0x first, then decimal, then signed decimal', async () => {
    const input = [
      '0x0f8a7ea5', // jetton_transfer=0x0f8a7ea5
      'f8a7ea5', // the same without 0x and leading zero
      '0X7362D09C', // jetton_notify=0x7362d09c, upper case
      '12345', // hex first: 0x12345, which names nothing
      '00000015', // minter_jetton_mint=0x00000015 (read as decimal it would be 0xf)
      '21', // hex 0x21, nothing (read as decimal it would be 0x15, minter_jetton_mint)
      '4294967295', // too long for 8 hex digits: unsigned decimal 0xffffffff, bounce=0xffffffff
      '-1', // signed decimal: 0xffffffff again
      String(0xd53276db | 0), // excess=0xd53276db as a signed 32-bit number (negative)
      '0', // text_comment=0x00000000
      '5fcc3d14', // nft_transfer=0x5fcc3d14
      'a7733acd', // vesting_send_message=0xa7733acd
      '75097f5d', // multisig_execute=0x75097f5d
      '0xdeadbeef', // nothing
    ];
    const expected = [
      'jetton_transfer',
      'jetton_transfer',
      'jetton_notify',
      'unknown',
      'minter_jetton_mint',
      'unknown',
      'bounce',
      'bounce',
      'excess',
      'text_comment',
      'nft_transfer',
      'vesting_send_message',
      'multisig_execute',
      'unknown',
    ];
    const viaGet = await get(q('opcodes', input));
    expect(viaGet.status).toBe(200);
    expect(viaGet.body).toEqual({ opcodes: expected, bodies: [] });
    const viaPost = await post({ opcodes: input });
    expect(viaPost.body).toEqual(viaGet.body);
  });

  it('names a tag several constructors share as toncenter does: the first in its scheme', async () => {
    // Appendix A lists evaa_supply_master and pyth_update_guardian_set for 0x00000001 and evaa_liquidate_master
    // for 0x00000003; ton-marker's schemes.tlb declares the EVAA ones first. change_dns_record and
    // delete_dns_record share 0x4eb1f0f9, change first.
    const r = await get(q('opcodes', ['1', '3', '4eb1f0f9']));
    expect(r.body.opcodes).toEqual(['evaa_supply_master', 'evaa_liquidate_master', 'change_dns_record']);
  });

  it('takes repeated and comma-separated parameters alike, in order', async () => {
    const a = await get('opcodes=0f8a7ea5,d53276db&opcodes=0');
    const b = await get('opcodes=0f8a7ea5&opcodes=d53276db&opcodes=0');
    expect(a.body).toEqual(b.body);
    expect(a.body.opcodes).toEqual(['jetton_transfer', 'excess', 'text_comment']);
  });

  it('refuses an opcode that is no number with 422 naming its position', async () => {
    for (const [bad, index] of [
      ['xyz', 1],
      ['0x', 1],
      ['99999999999', 1],
      ['-2147483649', 1],
      ['1.5', 1],
    ] as const) {
      const r = await get(q('opcodes', ['0', bad]));
      expect(r.status, bad).toBe(422);
      expect(r.body.error).toMatch(new RegExp(`^invalid opcode format at index ${index}: `));
    }
    const viaPost = await post({ opcodes: ['nope'] });
    expect(viaPost.status).toBe(422);
    expect(viaPost.body.error).toBe('invalid opcode format at index 0: nope');
  });

  it('answers empty lists when nothing is asked', async () => {
    expect((await get('')).body).toEqual({ opcodes: [], bodies: [] });
    expect((await post({})).body).toEqual({ opcodes: [], bodies: [] });
  });
});

describe('GET/POST /api/v3/decode: limits and bad requests', () => {
  it('accepts 1000 items of each list and refuses 1001 with 422', async () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => i.toString(16));
    const ok = await post({ opcodes: thousand, bodies: Array(1000).fill('te6cckEBAQEAAgAAAEysuc0=') });
    expect(ok.status).toBe(200);
    expect(ok.body.opcodes).toHaveLength(1000);
    expect(ok.body.bodies).toHaveLength(1000);
    expect(ok.body.bodies[999]).toEqual({ '@type': 'empty_cell' });

    const tooMany = await post({ opcodes: [...thousand, '0'] });
    expect(tooMany).toEqual({ status: 422, body: { error: 'opcodes list exceeds maximum length of 1000' } });
    const tooManyBodies = await post({ bodies: Array(1001).fill('00') });
    expect(tooManyBodies).toEqual({ status: 422, body: { error: 'bodies list exceeds maximum length of 1000' } });
    // GET counts comma-separated items one by one.
    const viaGet = await get(`opcodes=${[...thousand, '0'].join(',')}`);
    expect(viaGet).toEqual({ status: 422, body: { error: 'opcodes list exceeds maximum length of 1000' } });
  });

  it('answers malformed POST bodies with a 4xx and an error body, never 500', async () => {
    const cases: Array<[unknown, string, number]> = [
      ['{"opcodes": [', 'application/json', 400],
      ['[1, 2]', 'application/json', 422],
      ['"text"', 'application/json', 422],
      [{ opcodes: '0f8a7ea5' }, 'application/json', 422],
      [{ bodies: [1] }, 'application/json', 422],
      [{ opcodes: [null] }, 'application/json', 422],
      // A text body is not a JSON object (toncenter's parser answers 422 for it too); other types are 415.
      ['{"opcodes": ["0"]}', 'text/plain', 422],
      ['opcodes=1', 'application/x-www-form-urlencoded', 415],
    ];
    for (const [payload, type, status] of cases) {
      const r = await post(payload, type);
      expect(r.status, JSON.stringify(payload)).toBe(status);
    }
    expect((await post({ bodies: [1] })).body.error).toBe('bodies[0] must be a string');
    expect((await post({ opcodes: 'x' })).body.error).toBe('opcodes must be an array of strings');
  });
});

describe('GET/POST /api/v3/decode: bodies that cannot be decoded', () => {
  it('puts an error entry in the place of each, and decodes the others', async () => {
    const short = beginCell().storeUint(0xab, 8).endCell().toBoc().toString('base64');
    const unknownOp = beginCell().storeUint(0xdeadbeef, 32).storeUint(7, 64).endCell().toBoc().toString('base64');
    const good = beginCell().storeUint(0xd53276db, 32).storeUint(42, 64).endCell().toBoc();
    const truncated = good.subarray(0, good.length - 3).toString('base64');
    const r = await post({
      bodies: [
        'not a boc!',
        'abc', // odd hex
        'AAAA', // base64 but no BoC
        truncated,
        short,
        unknownOp,
        good.toString('base64'),
      ],
    });
    expect(r.status).toBe(200);
    const [notBoc, oddHex, noBoc, cut, tooSmall, unknown, excess] = r.body.bodies;
    for (const e of [notBoc, oddHex, noBoc, cut, tooSmall, unknown]) {
      expect(Object.keys(e)).toEqual(['error']);
      expect(e.error).toMatch(/^unknown: /);
    }
    expect(tooSmall.error).toBe('unknown: boc is too small, size 8');
    expect(unknown.error).toBe('unknown: no parser succeeded');
    expect(excess).toEqual({ '@type': 'excess', query_id: '42' });
  });

  it('refuses a BoC whose tree is too large to walk, however small the file', async () => {
    // 14 distinct cells, each referring twice to the next: a 16383-cell tree.
    let c = beginCell().storeUint(0xdeadbeef, 32).endCell();
    for (let i = 0; i < 13; i++) c = beginCell().storeUint(0x0f8a7ea5, 32).storeRef(c).storeRef(c).endCell();
    const body = await decodeOne(c.toBoc().toString('base64'));
    expect(body).toEqual({ error: 'unknown: decode limit - boc cell expansion limit exceeded' });
  });
});

describe('GET/POST /api/v3/decode: nesting', () => {
  // transfer#0f8a7ea5 query_id amount destination response_destination custom_payload:(Maybe ^Cell)
  //   forward_ton_amount forward_payload:(Either Cell ^Cell)  (contracts.md §2.2)
  const transfer = (queryId: number, custom: Cell | null) =>
    beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(queryId, 64)
      .storeCoins(1)
      .storeAddress(null)
      .storeAddress(null)
      .storeMaybeRef(custom)
      .storeCoins(0)
      .storeBit(0)
      .endCell();

  it('decodes cells that are bodies down to 10 levels below the body, and leaves deeper ones as BoCs', async () => {
    const cells: Cell[] = [];
    let inner: Cell | null = null;
    for (let level = 11; level >= 0; level--) {
      inner = transfer(level, inner);
      cells[level] = inner;
    }
    let node = await decodeOne(cells[0]!.toBoc().toString('base64'));
    for (let level = 0; level <= 10; level++) {
      expect(node['@type'], `level ${level}`).toBe('jetton_transfer');
      expect(node.query_id).toBe(String(level));
      node = node.custom_payload;
    }
    expect(typeof node).toBe('string');
    expect(Cell.fromBase64(node).hash().equals(cells[11]!.hash())).toBe(true);
  });

  it('decodes a bounced body and shows what follows the 0xffffffff prefix', async () => {
    const cut = beginCell().storeUint(0x178d4519, 32).storeUint(99, 64).storeCoins(5).endCell();
    const bounced = beginCell().storeUint(0xffffffff, 32).storeSlice(cut.beginParse()).endCell();
    const body = await decodeOne(bounced.toBoc().toString('base64'));
    expect(body['@type']).toBe('bounce');
    expect(Cell.fromBase64(body.payload).hash().equals(cut.hash())).toBe(true);
  });

  it('decodes the body of every message a wallet request carries', async () => {
    // highload v3 internal_transfer#ae42e5a4 query_id:uint64 actions:^OutList (contracts.md §8.1), with
    // action_send_msg#0ec3c86d mode:uint8 out_msg:^MessageRelaxed per message.
    const to = Address.parse('EQAs87W4yJHlF8mt29ocA4agnMrLsOP69jC1HPyBUjJay-7l');
    let list = beginCell().endCell();
    for (let i = 0; i < 3; i++) {
      const msg = internal({ to, value: BigInt(1000 + i), bounce: false, body: `note ${i}` });
      list = beginCell()
        .storeRef(list)
        .storeUint(0x0ec3c86d, 32)
        .storeUint(1, 8)
        .storeRef(beginCell().store(storeMessageRelaxed(msg)).endCell())
        .endCell();
    }
    const request = beginCell().storeUint(0xae42e5a4, 32).storeUint(5, 64).storeRef(list).endCell();
    const body = await decodeOne(request.toBoc().toString('base64'));
    expect(body['@type']).toBe('highload_v3_internal_request');
    expect(body.query_id).toBe('5');
    expect(body.actions).toHaveLength(3);
    body.actions.forEach((a: Json, i: number) => {
      expect(a['@type']).toBe('action_send_msg');
      expect(a.mode).toBe('1');
      expect(a.out_msg.info.dest).toBe(to.toRawString().toUpperCase());
      expect(a.out_msg.info.value.grams).toBe(String(1000 + i));
      expect(a.out_msg.body).toEqual({ '@type': 'text_comment', text: `note ${i}` });
    });
  });
});

describe.runIf(hasVectors)('GET/POST /api/v3/decode: real message bodies (../shared/vectors/messages)', () => {
  const V = hasVectors ? Object.fromEntries(loadVectors<MessageVector>('messages').map((v) => [v.file, v.data])) : {};
  /** Checks per vector: the decoded body against the values the vector's source (or second reader) gives. */
  const checks: Record<string, (d: Json, v: MessageVector) => void> = {
    'jetton_transfer_text_forward.json': (d, { expected: e }) => {
      expect(d).toEqual({
        '@type': 'jetton_transfer',
        query_id: e.query_id,
        amount: e.amount,
        destination: raw(e.destination),
        response_destination: raw(e.response_destination),
        custom_payload: null,
        forward_ton_amount: e.forward_ton_amount,
        forward_payload: { '@type': 'text_comment', text: e.forward_payload.text_comment },
      });
    },
    'jetton_transfer_custom_payload.json': (d, { expected: e }) => {
      expect(d['@type']).toBe('jetton_transfer');
      expect([d.query_id, d.amount, d.forward_ton_amount]).toEqual([e.query_id, e.amount, e.forward_ton_amount]);
      expect([d.destination, d.response_destination]).toEqual([raw(e.destination), raw(e.response_destination)]);
      // The custom payload is a mintless claim (merkle_airdrop_claim#0df602d6 proof:^Cell, contracts.md §2).
      expect(d.custom_payload['@type']).toBe('merkle_airdrop_claim');
      expect(d.forward_payload).toEqual({ '@type': 'text_comment', text: e.forward_payload.text_comment });
    },
    'jetton_transfer_notification.json': (d, { expected: e }) => {
      expect(d).toEqual({
        '@type': 'jetton_notify',
        query_id: e.query_id,
        amount: e.amount,
        sender: raw(e.sender),
        forward_payload: { '@type': 'text_comment', text: e.forward_payload.text_comment },
      });
    },
    'jetton_internal_transfer.json': (d, { expected: e }) => {
      expect(d).toEqual({
        '@type': 'jetton_internal_transfer',
        query_id: e.query_id,
        amount: e.amount,
        from: raw(e.from),
        response_address: raw(e.response_address),
        forward_ton_amount: e.forward_ton_amount,
        forward_payload: { '@type': 'text_comment', text: e.forward_payload.text_comment },
      });
    },
    'jetton_burn_anton.json': (d, { expected: e }) => {
      expect(d).toEqual({
        '@type': 'jetton_burn',
        query_id: e.query_id,
        amount: e.amount,
        response_destination: raw(e.response_destination),
        custom_payload: null,
      });
    },
    'jetton_burn_custom_payload.json': (d, { expected: e, verification }) => {
      expect(d['@type']).toBe('jetton_burn');
      expect([d.query_id, d.amount, d.response_destination]).toEqual([
        e.query_id,
        e.amount,
        raw(e.response_destination),
      ]);
      // Not a body of its own, so it stays a BoC: the cell the second reader hashed.
      expect(Cell.fromBase64(d.custom_payload).hash().toString('hex')).toBe(verification.decoded?.custom_payload);
    },
    'jetton_burn_notification.json': (d, { expected: e }) => {
      expect(e.response_destination).toBe('addr_none');
      expect(d).toEqual({
        '@type': 'jetton_burn_notification',
        query_id: e.query_id,
        amount: e.amount,
        sender: raw(e.sender),
        response_destination: null,
      });
    },
    'jetton_mint_op21.json': (d, { expected: e }) => {
      expect(d['@type']).toBe('minter_jetton_mint');
      expect([d.query_id, d.to_address, d.ton_amount]).toEqual([e.query_id, raw(e.to_address), e.amount]);
      expect(d.master_msg['@type']).toBe('jetton_internal_transfer');
      expect([d.master_msg.query_id, d.master_msg.amount]).toEqual([e.master_msg.query_id, e.master_msg.jetton_amount]);
    },
    'excesses.json': (d, { verification }) => {
      expect(d).toEqual({ '@type': 'excess', query_id: verification.decoded?.query_id });
    },
    'text_comment.json': (d, { expected: e }) => {
      expect(d).toEqual({ '@type': 'text_comment', text: e.text });
    },
    'nft_transfer.json': (d, { verification }) => {
      const e = verification.decoded!;
      expect(d).toEqual({
        '@type': 'nft_transfer',
        query_id: e.query_id,
        new_owner: raw(e.new_owner),
        response_destination: raw(e.response_destination),
        custom_payload: null,
        forward_amount: e.forward_amount,
        forward_payload: { '@type': 'empty_cell' },
      });
    },
    'nft_ownership_assigned.json': (d, { verification }) => {
      const e = verification.decoded!;
      expect(d).toEqual({
        '@type': 'nft_ownership_assigned',
        query_id: e.query_id,
        prev_owner: raw(e.prev_owner),
        forward_payload: { '@type': 'empty_cell' },
      });
    },
    'nft_collection_mint_item.json': (d, { expected: e }) => {
      expect(d['@type']).toBe('nft_deploy_item');
      expect([d.query_id, d.item_index, d.amount]).toEqual([e.query_id, String(e.index), e.ton_amount]);
      expect(d.content.owner).toBe(raw(e.content.owner));
      expect(Cell.fromBase64(d.content.individual_content).beginParse().loadStringTail()).toBe(e.content.content_text);
    },
    'nft_collection_change_owner.json': (d, { expected: e }) => {
      expect(d).toEqual({ '@type': 'change_owner', query_id: e.query_id, new_owner: raw(e.new_owner) });
    },
    'nft_collection_batch_mint.json': (d, { expected: e }) => {
      expect(d['@type']).toBe('nft_batch_deploy');
      expect(d.query_id).toBe(e.query_id);
      expect(d.deploy_list.length).toBeGreaterThan(0);
    },
    'dns_change_record_wallet.json': (d, { expected: e }) => {
      expect(d).toEqual({
        '@type': 'change_dns_record',
        query_id: e.query_id,
        key: hexUp(e.key),
        value: { '@type': 'dns_smc_address', smc_addr: raw(e.value.address), flags: '0', capabilities: [] },
      });
    },
    'dns_delete_record.json': (d, { expected: e }) => {
      expect(e.value).toBeNull();
      expect(d).toEqual({ '@type': 'delete_dns_record', query_id: e.query_id, key: hexUp(e.key) });
    },
    'wallet_v3_signed_body.json': (d, { expected: e }) => {
      expect(d['@type']).toBe('wallet_signed_v3');
      expect([d.signature, d.subwallet_id, d.valid_until, d.msg_seqno]).toEqual([
        hexUp(e.signature),
        String(e.subwallet_id),
        String(e.valid_until),
        String(e.seqno),
      ]);
      expect(d.msgs).toHaveLength(e.messages.length);
      expect(d.msgs[0].mode).toBe(String(e.messages[0].mode));
      expect(d.msgs[0].msg.info['@type']).toBe('ext_out_msg_info');
    },
    'wallet_v4_signed_body.json': (d, { expected: e }) => {
      expect(d['@type']).toBe('wallet_signed_v4');
      expect([d.signature, d.subwallet_id, d.valid_until, d.msg_seqno]).toEqual([
        hexUp(e.signature),
        String(e.subwallet_id),
        String(e.valid_until),
        String(e.seqno),
      ]);
      expect(d.op['@type']).toBe('simple_send');
      const [m] = e.messages;
      expect(d.op.msgs).toHaveLength(1);
      expect(d.op.msgs[0].mode).toBe(String(m.mode));
      const info = d.op.msgs[0].msg.info;
      expect([info['@type'], info.dest, info.bounce, info.ihr_disabled, info.value.grams]).toEqual([
        'int_msg_info',
        raw(m.dest),
        m.bounce,
        m.ihr_disabled,
        m.value,
      ]);
      expect(d.op.msgs[0].msg.body).toEqual({ '@type': 'text_comment', text: m.body_text_comment });
    },
    'wallet_v5r1_signed_body.json': (d, { expected: e }) => {
      expect(d['@type']).toBe('w5_external_signed_request');
      const r = d.request;
      expect([r.wallet_id, r.valid_until, r.msg_seqno, r.signature]).toEqual([
        String(e.wallet_id),
        String(e.valid_until),
        String(e.seqno),
        hexUp(e.signature),
      ]);
      expect(r.inner.extended_actions).toBeNull();
      expect(r.inner.out_actions.map((a: Json) => [a['@type'], a.mode])).toEqual(
        e.actions.map((a: Json) => [a.magic === '0x0ec3c86d' ? 'action_send_msg' : a.magic, String(a.mode)]),
      );
    },
  };

  it('has a check for every message vector', () => {
    expect(Object.keys(V).sort()).toEqual(Object.keys(checks).sort());
  });

  it('decodes each body (POST, in one request) to the fields its source asserts', async () => {
    const files = Object.keys(checks);
    const r = await post({ bodies: files.map((f) => V[f]!.boc_base64) });
    expect(r.status).toBe(200);
    files.forEach((f, i) => {
      const d = r.body.bodies[i];
      expect(d.error, `${f}: ${d.error}`).toBeUndefined();
      checks[f]!(d, V[f]!);
    });
  });

  it('answers GET exactly as POST, for base64, url-safe base64 and hex forms', async () => {
    const files = Object.keys(checks);
    const viaPost = (await post({ bodies: files.map((f) => V[f]!.boc_base64) })).body.bodies;
    for (const [i, f] of files.entries()) {
      const b64 = V[f]!.boc_base64;
      const hex = Buffer.from(b64, 'base64').toString('hex');
      const urlSafe = b64.replace(/\+/g, '-').replace(/\//g, '_');
      const r = await get(q('bodies', [b64, urlSafe, hex, `0x${hex}`]));
      expect(r.status, f).toBe(200);
      for (const d of r.body.bodies) expect(d, f).toEqual(viaPost[i]);
      // Unescaped in the URL, base64's '+' arrives as a space; it is read back as '+'.
      if (b64.includes('+')) expect((await get(`bodies=${b64}`)).body.bodies, f).toEqual([viaPost[i]]);
    }
  });
});

describe.runIf(hasVectors)('GET/POST /api/v3/decode: inbound bodies of real transactions', () => {
  const tx = (file: string): Transaction =>
    loadTransaction(Cell.fromBase64(loadVector<TxVector>('transactions', file).boc_base64).beginParse());
  const inBody = (t: Transaction) => t.inMessage!.body.toBoc().toString('base64');
  const outs = (t: Transaction) => [...t.outMessages.values()];
  const opOf = (c: Cell) => (c.bits.length >= 32 ? c.beginParse().preloadUint(32) : null);
  const destOf = (t: Transaction, op: number) => {
    const m = outs(t).find((o) => opOf(o.body) === op);
    return m?.info.dest instanceof Address ? m.info.dest.toRawString().toUpperCase() : null;
  };

  it('a jetton transfer: the amount, query id and response address the wallet passed on in internal_transfer', async () => {
    const t = tx('jetton_transfer_usdt_c3cb5b8c.json');
    const d = await decodeOne(inBody(t));
    // internal_transfer#178d4519 query_id:uint64 amount:Coins from:MsgAddress response_address:MsgAddress ...
    const sent = outs(t)
      .find((o) => opOf(o.body) === 0x178d4519)!
      .body.beginParse()
      .skip(32);
    const queryId = sent.loadUintBig(64).toString();
    const amount = sent.loadCoins().toString();
    const from = sent.loadAddress().toRawString().toUpperCase();
    const response = sent.loadAddress().toRawString().toUpperCase();
    expect(d['@type']).toBe('jetton_transfer');
    expect([d.query_id, d.amount, d.response_destination]).toEqual([queryId, amount, response]);
    // The wallet names its owner (the transfer's sender) as `from`.
    const src = t.inMessage!.info.src as Address;
    expect(from).toBe(src.toRawString().toUpperCase());
  });

  it('an NFT transfer: new owner and response destination are where ownership_assigned and excesses went', async () => {
    const t = tx('nft_transfer_c711c8f4.json');
    const d = await decodeOne(inBody(t));
    expect(d['@type']).toBe('nft_transfer');
    expect(d.new_owner).toBe(destOf(t, 0x05138d91));
    expect(d.response_destination).toBe(destOf(t, 0xd53276db));
  });

  it('wallet v4r2 and v5r1 externals: the message each sent, with its value and decoded comment', async () => {
    for (const [file, messagesOf] of [
      ['wallet_v4r2_transfer_cc96f49e.json', (d: Json) => d.op.msgs.map((m: Json) => m.msg)],
      ['wallet_v5r1_transfer_a4bbd904.json', (d: Json) => d.request.inner.out_actions.map((a: Json) => a.out_msg)],
    ] as const) {
      const t = tx(file);
      const d = await decodeOne(inBody(t));
      const sent = outs(t);
      const msgs = messagesOf(d);
      expect(msgs, file).toHaveLength(sent.length);
      msgs.forEach((m: Json, i: number) => {
        const o = sent[i]!;
        if (o.info.type !== 'internal') throw new Error('expected an internal message');
        expect(m.info.dest).toBe(o.info.dest.toRawString().toUpperCase());
        expect(m.info.value.grams).toBe(o.info.value.coins.toString());
        // A text comment (op 0) as the chain carried it.
        expect(m.body).toEqual({ '@type': 'text_comment', text: o.body.beginParse().skip(32).loadStringTail() });
      });
    }
  });

  it('a highload v3 external: the jetton transfer it sent, decoded inside the request', async () => {
    const t = tx('highload_v3_jetton_send_803ef840.json');
    const d = await decodeOne(inBody(t));
    expect(d['@type']).toBe('highload_wallet_signed_v3');
    const sent = outs(t)[0]!;
    const m = d.msg_inner.message_to_send;
    expect(m.info.dest).toBe((sent.info.dest as Address).toRawString().toUpperCase());
    expect(opOf(sent.body)).toBe(0x0f8a7ea5);
    expect(m.body['@type']).toBe('jetton_transfer');
    // Same body as the chain's message: the query id read from it.
    expect(m.body.query_id).toBe(sent.body.beginParse().skip(32).loadUintBig(64).toString());
  });
});
