import { Address, crc16 } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { LATEST_ACTION_TYPES, V1_ACTION_TYPES } from '../../index/actions/supported.ts';
import { normalizeAddressV3 } from '../../ton/address/index.ts';
import {
  DecodeFailure,
  expandSupportedActionTypes,
  isJsonContentType,
  normalizeStreamAddress,
  parseJsonBody,
  parseSseRequest,
  type SseParseOptions,
  sseAddressLimitError,
  unsupportedContentType,
  WsSession,
} from './subscription.ts';

// Real addresses: a basechain one (whose standard-alphabet form has '/') and a masterchain one.
const ADDR_A = new Address(0, Buffer.alloc(32, 0x0a));
const RAW_A = `0:${'0A'.repeat(32)}`;
const ADDR_B = new Address(-1, Buffer.alloc(32, 0xd9));
const RAW_B = `-1:${'D9'.repeat(32)}`;
const HASH = 'ewJqKiQK0MOpvFi6KJELydA8uGkaJovjoAQXJxPoWO0=';
const HASH2 = 'RXbHkz1AgTiLysB2nPpmJ9y4L1uJHS/24Dcll2OnKWk=';

const SSE: SseParseOptions = { actionsVersionHeader: [], maxAddresses: -1 };

function ws(maxAddresses = -1, actionsVersion?: string): WsSession {
  return new WsSession({ maxAddresses, ...(actionsVersion !== undefined ? { actionsVersion } : {}) });
}

/** A friendly address text with an arbitrary tag byte and a correct checksum. */
function friendlyWithTag(tag: number, address: Address): string {
  const body = Buffer.concat([Buffer.from([tag, address.workChain & 0xff]), address.hash]);
  return Buffer.concat([body, crc16(body)]).toString('base64url');
}

describe('address normalisation (§2.3)', () => {
  it('turns every user-friendly form and raw case into "<wc>:<UPPER HEX>"', () => {
    for (const [a, raw] of [
      [ADDR_A, RAW_A],
      [ADDR_B, RAW_B],
    ] as const) {
      const forms = [
        raw,
        raw.toLowerCase(),
        a.toRawString(),
        a.toString(),
        a.toString({ bounceable: false }),
        a.toString({ testOnly: true }),
        a.toString({ bounceable: false, testOnly: true }),
        a.toString({ urlSafe: false }),
        a.toString({ urlSafe: false, bounceable: false }),
      ];
      for (const text of forms) {
        expect(normalizeStreamAddress(text), text).toBe(raw);
        // The v3 helper agrees on every ordinary form.
        expect(normalizeAddressV3(text), text).toBe(raw);
      }
    }
  });

  it('retries with + and / swapped, so the standard alphabet and a mixed one both work', () => {
    const std = ADDR_A.toString({ urlSafe: false });
    expect(std).toMatch(/[+/]/);
    expect(normalizeStreamAddress(std)).toBe(RAW_A);
    const mixed = ADDR_A.toString().replace('_', '/');
    expect(normalizeStreamAddress(mixed)).toBe(RAW_A);
  });

  it('accepts what Go accepts beyond the usual forms: any tag byte, a signed workchain, CR/LF in base64', () => {
    expect(normalizeStreamAddress(friendlyWithTag(0x00, ADDR_A))).toBe(RAW_A);
    expect(normalizeStreamAddress(`+0:${'0a'.repeat(32)}`)).toBe(RAW_A);
    expect(normalizeStreamAddress(`-0:${'0a'.repeat(32)}`)).toBe(RAW_A);
    expect(normalizeStreamAddress(`00:${'0a'.repeat(32)}`)).toBe(RAW_A);
    const f = ADDR_A.toString();
    expect(normalizeStreamAddress(`${f.slice(0, 20)}\r\n${f.slice(20)}\n`)).toBe(RAW_A);
  });

  it('rejects a bad checksum, bad lengths, bad workchains and stray characters', () => {
    const f = ADDR_A.toString();
    const badCrc = `${f.slice(0, 47)}${f[47] === 'A' ? 'B' : 'A'}`;
    for (const text of [
      badCrc,
      f.slice(1),
      `${f}A`,
      `${f}=`,
      `0:${'0A'.repeat(31)}`,
      `0:${'0A'.repeat(32)}0`,
      `0:${'0G'.repeat(32)}`,
      `128:${'0A'.repeat(32)}`,
      `-129:${'0A'.repeat(32)}`,
      `0x0:${'0A'.repeat(32)}`,
      `:${'0A'.repeat(32)}`,
      `0:0:${'0A'.repeat(31)}`,
      ' 0:'.concat('0A'.repeat(32)),
      '0A'.repeat(32),
      '',
      'nope',
    ]) {
      expect(normalizeStreamAddress(text), text).toBeNull();
    }
  });
});

describe('supported_action_types expansion (§2.4)', () => {
  it('always adds v1; an empty list gives v1 alone', () => {
    expect(expandSupportedActionTypes([])).toEqual(new Set(V1_ACTION_TYPES));
    expect(expandSupportedActionTypes(['v1'])).toEqual(new Set(V1_ACTION_TYPES));
    const s = expandSupportedActionTypes(['multisig']);
    for (const t of V1_ACTION_TYPES) expect(s.has(t)).toBe(true);
    expect(s.has('multisig_execute')).toBe(true);
    expect(s.has('evaa_supply')).toBe(false);
  });

  it('latest is v4 (no tgbtc), and shortcut names never appear in the set', () => {
    const latest = expandSupportedActionTypes(['latest']);
    expect(latest).toEqual(new Set(LATEST_ACTION_TYPES));
    expect(latest).toEqual(expandSupportedActionTypes(['v4']));
    expect(latest.has('cocoon_grant_refund')).toBe(true);
    expect(latest.has('tgbtc_mint')).toBe(false);
    for (const name of ['v1', 'v2', 'v3', 'v4', 'latest', 'nft', 'dns']) expect(latest.has(name)).toBe(false);
    expect(latest.size).toBe(23 + 23 + 17 + 12);
  });

  it('keeps literal names as they are, alone or beside shortcuts', () => {
    const s = expandSupportedActionTypes(['extra_currency_transfer', 'v2', 'v1, v2']);
    expect(s.has('extra_currency_transfer')).toBe(true);
    expect(s.has('v1, v2')).toBe(true);
    expect(s.has('jvault_claim')).toBe(true);
    expect(s.has('nft_purchase')).toBe(false);
  });

  it('expands the group shortcuts as the reference table lists them', () => {
    const groups: Record<string, string[]> = {
      staking: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'],
      jettons: ['jetton_transfer', 'jetton_burn', 'jetton_mint'],
      nft: ['nft_transfer', 'nft_mint', 'auction_bid'],
      'nft.v3': [
        'nft_transfer',
        'nft_mint',
        'auction_bid',
        'nft_put_on_sale',
        'nft_put_on_auction',
        'auction_outbid',
        'nft_cancel_sale',
        'nft_purchase',
        'nft_cancel_auction',
        'nft_finish_auction',
        'teleitem_start_auction',
        'teleitem_cancel_auction',
        'nft_update_sale',
        'dns_purchase',
        'dns_release',
      ],
      dns: ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release'],
      'dns.v2': ['change_dns', 'delete_dns', 'renew_dns', 'dns_purchase', 'dns_release'],
      multisig: ['multisig_create_order', 'multisig_approve', 'multisig_execute'],
      vesting: ['vesting_send_message', 'vesting_add_whitelist'],
      evaa: ['evaa_supply', 'evaa_withdraw', 'evaa_liquidate'],
      jvault: ['jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request'],
      coffee: [
        'coffee_create_vault',
        'coffee_create_pool_creator',
        'coffee_create_pool',
        'coffee_mev_protect_hold_funds',
        'coffee_staking_claim_rewards',
        'coffee_staking_deposit',
        'coffee_staking_withdraw',
      ],
      tgbtc: [
        'tgbtc_dkg_log_fallback',
        'tgbtc_new_key',
        'tgbtc_new_key_fallback',
        'tgbtc_burn',
        'tgbtc_burn_fallback',
        'tgbtc_mint',
        'tgbtc_mint_fallback',
      ],
      layerzero: [
        'layerzero_send',
        'layerzero_send_tokens',
        'layerzero_receive',
        'layerzero_commit_packet',
        'layerzero_dvn_verify',
      ],
      cocoon: [
        'cocoon_worker_payout',
        'cocoon_proxy_payout',
        'cocoon_proxy_charge',
        'cocoon_client_top_up',
        'cocoon_register_proxy',
        'cocoon_unregister_proxy',
        'cocoon_client_register',
        'cocoon_client_change_secret_hash',
        'cocoon_client_request_refund',
        'cocoon_grant_refund',
        'cocoon_client_increase_stake',
        'cocoon_client_withdraw',
      ],
    };
    for (const [name, types] of Object.entries(groups)) {
      expect(expandSupportedActionTypes([name]), name).toEqual(new Set([...V1_ACTION_TYPES, ...types]));
    }
  });
});

// §2.5 checks 1–7: each message on both transports, byte for byte.
const VALIDATION: { name: string; body: Record<string, unknown>; sse: string; ws: string }[] = [
  { name: 'no types', body: {}, sse: 'types are required for subscription', ws: 'types are required' },
  { name: 'empty types', body: { types: [] }, sse: 'types are required for subscription', ws: 'types are required' },
  { name: 'null types', body: { types: null }, sse: 'types are required for subscription', ws: 'types are required' },
  {
    name: 'trace_invalidated is not subscribable',
    body: { types: ['transactions', 'trace_invalidated'], addresses: [RAW_A] },
    sse: 'invalid event type: trace_invalidated',
    ws: 'invalid event type: trace_invalidated',
  },
  {
    name: 'an unknown type before a bad address',
    body: { types: ['transactions', 'soon'], addresses: ['nope'] },
    sse: 'invalid event type: soon',
    ws: 'invalid event type: soon',
  },
  {
    name: 'a null type is ""',
    body: { types: ['transactions', null], addresses: [RAW_A] },
    sse: 'invalid event type: ',
    ws: 'invalid event type: ',
  },
  {
    name: 'the first bad address, as given',
    body: { types: ['transactions'], addresses: [RAW_A, '0:xyz', 'nope'] },
    sse: 'invalid address: 0:xyz',
    ws: 'invalid address: 0:xyz',
  },
  {
    name: 'a bad address before a blank hash',
    body: { types: ['trace'], addresses: ['nope'], trace_external_hash_norms: [' '] },
    sse: 'invalid address: nope',
    ws: 'invalid address: nope',
  },
  {
    name: 'a blank hash',
    body: { types: ['trace'], trace_external_hash_norms: [HASH, ' \t\n'] },
    sse: 'trace_external_hash_norms contains empty value',
    ws: 'trace_external_hash_norms contains empty value',
  },
  {
    name: 'an empty hash',
    body: { types: ['trace'], trace_external_hash_norms: [''] },
    sse: 'trace_external_hash_norms contains empty value',
    ws: 'trace_external_hash_norms contains empty value',
  },
  {
    name: 'hashes without trace',
    body: { types: ['transactions'], addresses: [RAW_A], trace_external_hash_norms: [HASH] },
    sse: 'trace_external_hash_norms requires type "trace"',
    ws: 'trace_external_hash_norms requires type "trace"',
  },
  {
    name: 'trace without hashes',
    body: { types: ['trace'], addresses: [RAW_A] },
    sse: 'trace_external_hash_norms are required for trace subscription',
    ws: 'trace_external_hash_norms are required for trace subscription',
  },
  {
    name: 'hashes checked before addresses',
    body: { types: ['trace', 'transactions'] },
    sse: 'trace_external_hash_norms are required for trace subscription',
    ws: 'trace_external_hash_norms are required for trace subscription',
  },
  {
    name: 'an address type without addresses',
    body: { types: ['trace', 'actions'], trace_external_hash_norms: [HASH] },
    sse: 'addresses are required for subscription',
    ws: 'addresses are required',
  },
  {
    name: 'account types without addresses',
    body: { types: ['account_state_change', 'jettons_change'], addresses: [] },
    sse: 'addresses are required for subscription',
    ws: 'addresses are required',
  },
];

describe('validation messages (§2.5), both transports', () => {
  it.each(VALIDATION)('$name', ({ body, sse, ws: wsMessage }) => {
    expect(parseSseRequest({ id: 'r1', ...body }, SSE)).toEqual({
      ok: false,
      status: 400,
      body: { id: 'r1', error: sse },
    });
    const reply = ws().handle(JSON.stringify({ operation: 'subscribe', id: 'r1', ...body }));
    expect(JSON.stringify(reply)).toBe(JSON.stringify({ id: 'r1', error: wsMessage }));
  });
});

describe('SSE request (§1.3)', () => {
  it('decodes a full request, normalising and deduplicating', () => {
    const r = parseSseRequest(
      {
        id: 'sub-1',
        types: ['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change'],
        addresses: [ADDR_A.toString(), RAW_A.toLowerCase(), ADDR_B.toString({ urlSafe: false })],
        trace_external_hash_norms: [` ${HASH}\n`, HASH, HASH2],
        min_finality: 'pending',
        include_address_book: true,
        include_metadata: true,
        action_types: ['ton_transfer', 'jetton_transfer'],
        supported_action_types: ['v2'],
        unknown_key: { anything: 1 },
      },
      { actionsVersionHeader: ['v4'], maxAddresses: 2 },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.id).toBe('sub-1');
    const s = r.subscription;
    expect([...s.types]).toEqual(['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change']);
    expect([...s.addresses]).toEqual([RAW_A, RAW_B]);
    expect([...s.traceHashes]).toEqual([HASH, HASH2]);
    expect(s.minFinality).toBe('pending');
    expect(s.includeAddressBook).toBe(true);
    expect(s.includeMetadata).toBe(true);
    expect(s.actionTypes).toEqual(new Set(['ton_transfer', 'jetton_transfer']));
    expect(s.supportedActionTypes).toEqual(expandSupportedActionTypes(['v2']));
  });

  it('defaults: finalized, no book, no metadata, no action filter, latest', () => {
    const r = parseSseRequest({ types: ['transactions'], addresses: [RAW_A], action_types: [] }, SSE);
    expect(r).toMatchObject({ ok: true });
    if (!r.ok) return;
    expect('id' in r).toBe(false);
    expect(r.subscription.minFinality).toBe('finalized');
    expect(r.subscription.includeAddressBook).toBe(false);
    expect(r.subscription.includeMetadata).toBe(false);
    expect(r.subscription.actionTypes).toBeNull();
    expect(r.subscription.traceHashes.size).toBe(0);
    expect(r.subscription.supportedActionTypes).toEqual(expandSupportedActionTypes(['latest']));
  });

  it('takes supported_action_types from every X-Actions-Version value only when the body has none', () => {
    const base = { types: ['transactions'], addresses: [RAW_A] };
    const supported = (body: Record<string, unknown>, header: string[]) => {
      const r = parseSseRequest(body, { actionsVersionHeader: header, maxAddresses: -1 });
      if (!r.ok) throw new Error(r.body.error);
      return r.subscription.supportedActionTypes;
    };
    expect(supported(base, ['v2', 'tgbtc'])).toEqual(expandSupportedActionTypes(['v2', 'tgbtc']));
    expect(supported({ ...base, supported_action_types: [] }, ['v2'])).toEqual(expandSupportedActionTypes(['v2']));
    expect(supported({ ...base, supported_action_types: null }, ['v2'])).toEqual(expandSupportedActionTypes(['v2']));
    expect(supported({ ...base, supported_action_types: ['v3'] }, ['v2'])).toEqual(expandSupportedActionTypes(['v3']));
    // One comma-separated value is one (unknown, literal) name: v1 and that literal.
    expect(supported(base, ['v2, v3'])).toEqual(new Set([...V1_ACTION_TYPES, 'v2, v3']));
    // An empty header value still counts as a value.
    expect(supported(base, [''])).toEqual(new Set([...V1_ACTION_TYPES, '']));
  });

  it('echoes the id on validation errors: "" too, but not null', () => {
    expect(parseSseRequest({ id: '', types: [] }, SSE)).toEqual({
      ok: false,
      status: 400,
      body: { id: '', error: 'types are required for subscription' },
    });
    const r = parseSseRequest({ id: null, types: [] }, SSE);
    expect(r).toEqual({ ok: false, status: 400, body: { error: 'types are required for subscription' } });
    if (!r.ok) expect(JSON.stringify(r.body)).toBe('{"error":"types are required for subscription"}');
    const ok = parseSseRequest({ id: '', types: ['transactions'], addresses: [RAW_A] }, SSE);
    expect(ok.ok && ok.id).toBe('');
  });

  it('reports decoding errors without an id', () => {
    const cases: unknown[] = [
      { id: 5, types: ['transactions'], addresses: [RAW_A] },
      { id: 'x', types: 'transactions', addresses: [RAW_A] },
      { id: 'x', types: ['transactions', 1], addresses: [RAW_A] },
      { id: 'x', types: ['transactions'], addresses: {} },
      { id: 'x', types: ['transactions'], addresses: [RAW_A], include_address_book: 'yes' },
      { id: 'x', types: ['transactions'], addresses: [RAW_A], include_metadata: 1 },
      { id: 'x', types: ['trace'], trace_external_hash_norms: [1] },
      { id: 'x', types: ['transactions'], addresses: [RAW_A], action_types: 'ton_transfer' },
      { id: 'x', types: ['transactions'], addresses: [RAW_A], supported_action_types: [true] },
      ['transactions'],
      'transactions',
      7,
    ];
    for (const body of cases) {
      const r = parseSseRequest(body, SSE);
      expect(r.ok, JSON.stringify(body)).toBe(false);
      if (r.ok) continue;
      expect(r.status).toBe(400);
      expect(Object.keys(r.body)).toEqual(['error']);
      expect(r.body.error).toMatch(/^invalid subscription request: \S/);
    }
    const idError = parseSseRequest({ id: 5 }, SSE);
    expect(idError.ok ? '' : idError.body.error).toBe(
      'invalid subscription request: id: cannot unmarshal number into string',
    );
  });

  it('gives the finality error exactly, ahead of a type error met before it', () => {
    const msg = 'invalid subscription request: unknown finality state: soon';
    expect(parseSseRequest({ id: 'x', types: ['transactions'], min_finality: 'soon' }, SSE)).toEqual({
      ok: false,
      status: 400,
      body: { error: msg },
    });
    expect(parseSseRequest({ id: 5, types: 7, min_finality: 'soon' }, SSE)).toEqual({
      ok: false,
      status: 400,
      body: { error: msg },
    });
    // Finality names are case-sensitive.
    expect(parseSseRequest({ types: ['transactions'], min_finality: 'Pending' }, SSE)).toMatchObject({
      body: { error: 'invalid subscription request: unknown finality state: Pending' },
    });
    expect(parseSseRequest({ types: ['transactions'], min_finality: 1 }, SSE)).toMatchObject({
      body: { error: 'invalid subscription request: min_finality: cannot unmarshal number into string' },
    });
  });

  it('treats null as absent and a null body as an empty request', () => {
    const r = parseSseRequest(
      { types: ['transactions'], addresses: [RAW_A], min_finality: null, include_address_book: null },
      SSE,
    );
    expect(r.ok && r.subscription.minFinality).toBe('finalized');
    expect(parseSseRequest(null, SSE)).toEqual({
      ok: false,
      status: 400,
      body: { error: 'types are required for subscription' },
    });
  });

  it('matches keys ignoring case, as Go does', () => {
    const r = parseSseRequest({ ID: 'k', Types: ['transactions'], ADDRESSES: [RAW_A], Min_Finality: 'confirmed' }, SSE);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.id).toBe('k');
    expect(r.subscription.minFinality).toBe('confirmed');
  });

  it('passes a JSON parse failure through with its message and no id', () => {
    const body = parseJsonBody('{"id":"x",');
    expect(body).toBeInstanceOf(DecodeFailure);
    const r = parseSseRequest(body, SSE);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(Object.keys(r.body)).toEqual(['error']);
      expect(r.body.error.startsWith('invalid subscription request: ')).toBe(true);
    }
    expect(parseSseRequest(parseJsonBody(''), SSE)).toEqual({
      ok: false,
      status: 400,
      body: { error: 'invalid subscription request: unexpected end of JSON input' },
    });
    expect(parseSseRequest(new DecodeFailure('boom'), SSE)).toEqual({
      ok: false,
      status: 400,
      body: { error: 'invalid subscription request: boom' },
    });
  });

  it('has the non-JSON content type answer and test', () => {
    expect(unsupportedContentType()).toEqual({ error: 'invalid subscription request: Unprocessable Entity' });
    for (const t of ['application/json', 'Application/JSON; charset=utf-8', 'application/vnd.api+json', 'text/json']) {
      expect(isJsonContentType(t), t).toBe(true);
    }
    for (const t of [undefined, '', 'text/plain', 'application/x-www-form-urlencoded', 'application/json+x']) {
      expect(isJsonContentType(t), String(t)).toBe(false);
    }
  });

  describe('address limit (§2.5 check 9)', () => {
    const body = { id: 'q', types: ['transactions'], addresses: [RAW_A, ADDR_A.toString(), RAW_B] };
    it('counts unique addresses against the limit', () => {
      expect(parseSseRequest(body, { actionsVersionHeader: [], maxAddresses: 1 })).toEqual({
        ok: false,
        status: 400,
        body: { id: 'q', error: 'too many addresses: 2 > max 1' },
      });
      expect(parseSseRequest(body, { actionsVersionHeader: [], maxAddresses: 2 }).ok).toBe(true);
      expect(parseSseRequest(body, { actionsVersionHeader: [], maxAddresses: -1 }).ok).toBe(true);
    });
    it('0 rejects any address but not a trace-only subscription', () => {
      expect(parseSseRequest(body, { actionsVersionHeader: [], maxAddresses: 0 })).toMatchObject({
        body: { id: 'q', error: 'too many addresses: 2 > max 0' },
      });
      const traceOnly = { types: ['trace'], trace_external_hash_norms: [HASH, HASH2] };
      expect(parseSseRequest(traceOnly, { actionsVersionHeader: [], maxAddresses: 0 }).ok).toBe(true);
    });
    it('comes after validation', () => {
      expect(
        parseSseRequest({ ...body, addresses: [RAW_A, RAW_B, 'nope'] }, { actionsVersionHeader: [], maxAddresses: 0 }),
      ).toMatchObject({ body: { error: 'invalid address: nope' } });
    });
    it('is available on its own for the order with the connection limit', () => {
      expect(sseAddressLimitError(3, 2, 'i')).toEqual({
        ok: false,
        status: 400,
        body: { id: 'i', error: 'too many addresses: 3 > max 2' },
      });
      expect(sseAddressLimitError(3, 3)).toBeUndefined();
      expect(sseAddressLimitError(3, -1)).toBeUndefined();
    });
  });
});

describe('WebSocket session (§1.4)', () => {
  it('starts with nothing subscribed, finalized, no book or metadata, the header version', () => {
    const s = ws().subscription;
    expect(s.types.size).toBe(0);
    expect(s.addresses.size).toBe(0);
    expect(s.traceHashes.size).toBe(0);
    expect(s.minFinality).toBe('finalized');
    expect(s.includeAddressBook).toBe(false);
    expect(s.includeMetadata).toBe(false);
    expect(s.actionTypes).toBeNull();
    expect(s.supportedActionTypes).toEqual(expandSupportedActionTypes(['latest']));
    expect(ws(-1, '').subscription.supportedActionTypes).toEqual(expandSupportedActionTypes(['latest']));
    expect(ws(-1, 'v2').subscription.supportedActionTypes).toEqual(expandSupportedActionTypes(['v2']));
    // The first header value is one name, not split.
    expect(ws(-1, 'v2, v3').subscription.supportedActionTypes).toEqual(new Set([...V1_ACTION_TYPES, 'v2, v3']));
  });

  it('answers ping, echoing the id exactly when present and not null', () => {
    const s = ws();
    expect(JSON.stringify(s.handle('{"operation":"ping","id":"ping-42"}'))).toBe('{"id":"ping-42","status":"pong"}');
    expect(JSON.stringify(s.handle('{"operation":"ping","id":""}'))).toBe('{"id":"","status":"pong"}');
    expect(JSON.stringify(s.handle('{"operation":"ping","id":null}'))).toBe('{"status":"pong"}');
    expect(JSON.stringify(s.handle('{"operation":"ping"}'))).toBe('{"status":"pong"}');
    expect(JSON.stringify(s.handle('{"Operation":"ping","ID":"k"}'))).toBe('{"id":"k","status":"pong"}');
  });

  it('rejects a bad envelope without an id', () => {
    const s = ws();
    for (const text of [
      'not json',
      '',
      '{"operation":"ping"',
      '{"operation":"ping","id":5}',
      '{"id":{}}',
      '[1]',
      '"ping"',
      '1',
    ]) {
      const reply = s.handle(text);
      expect(Object.keys(reply), text).toEqual(['error']);
      expect(reply.error, text).toMatch(/^invalid request envelope: \S/);
    }
    expect(s.handle('{"operation":5,"id":"x"}')).toEqual({
      error: 'invalid request envelope: operation: cannot unmarshal number into string',
    });
    expect(s.handle('')).toEqual({ error: 'invalid request envelope: unexpected end of JSON input' });
  });

  it('names unknown or missing operations, with the id', () => {
    const s = ws();
    expect(JSON.stringify(s.handle('{"operation":"hello","id":"4"}'))).toBe(
      '{"id":"4","error":"unknown operation: hello"}',
    );
    expect(s.handle('{"id":"5"}')).toEqual({ id: '5', error: 'unknown operation: ' });
    expect(s.handle('{"operation":null}')).toEqual({ error: 'unknown operation: ' });
    expect(s.handle('null')).toEqual({ error: 'unknown operation: ' });
    expect(s.handle('{"operation":"Ping"}')).toEqual({ error: 'unknown operation: Ping' });
  });

  it('subscribes and acks', () => {
    const s = ws();
    const reply = s.handle(
      JSON.stringify({
        operation: 'subscribe',
        id: '1',
        types: ['transactions', 'actions', 'trace'],
        addresses: [ADDR_B.toString(), RAW_B],
        trace_external_hash_norms: [HASH],
        min_finality: 'pending',
        include_address_book: true,
      }),
    );
    expect(JSON.stringify(reply)).toBe('{"id":"1","status":"subscribed"}');
    const sub = s.subscription;
    expect([...sub.types]).toEqual(['transactions', 'actions', 'trace']);
    expect([...sub.addresses]).toEqual([RAW_B]);
    expect([...sub.traceHashes]).toEqual([HASH]);
    expect(sub.minFinality).toBe('pending');
    expect(sub.includeAddressBook).toBe(true);
    expect(sub.includeMetadata).toBe(false);
  });

  it('reports subscribe decoding errors with the id and keeps the subscription', () => {
    const s = ws();
    s.handle(JSON.stringify({ operation: 'subscribe', types: ['transactions'], addresses: [RAW_A] }));
    const before = s.subscription;
    expect(
      s.handle(JSON.stringify({ operation: 'subscribe', id: '9', types: ['transactions'], min_finality: 'soon' })),
    ).toEqual({ id: '9', error: 'invalid subscribe request: unknown finality state: soon' });
    const typed = s.handle(JSON.stringify({ operation: 'subscribe', id: '9', types: 'transactions' }));
    expect(typed).toEqual({
      id: '9',
      error: 'invalid subscribe request: types: cannot unmarshal string into array of strings',
    });
    expect(s.handle(JSON.stringify({ operation: 'subscribe', id: '9', types: ['trace'] }))).toEqual({
      id: '9',
      error: 'trace_external_hash_norms are required for trace subscription',
    });
    expect(s.subscription).toBe(before);
  });

  it('replaces addresses, hashes and types; keeps the other fields unless given (arrays: non-empty)', () => {
    const s = ws();
    const send = (body: Record<string, unknown>) => s.handle(JSON.stringify({ operation: 'subscribe', ...body }));
    expect(
      send({
        types: ['transactions', 'trace'],
        addresses: [RAW_A, RAW_B],
        trace_external_hash_norms: [HASH],
        min_finality: 'pending',
        include_address_book: true,
        include_metadata: true,
        action_types: ['ton_transfer'],
        supported_action_types: ['v1'],
      }),
    ).toEqual({ status: 'subscribed' });

    // A bare subscribe: sets replaced, everything else kept.
    expect(send({ types: ['account_state_change'], addresses: [RAW_A] })).toEqual({ status: 'subscribed' });
    let sub = s.subscription;
    expect([...sub.types]).toEqual(['account_state_change']);
    expect([...sub.addresses]).toEqual([RAW_A]);
    expect(sub.traceHashes.size).toBe(0);
    expect(sub.minFinality).toBe('pending');
    expect(sub.includeAddressBook).toBe(true);
    expect(sub.includeMetadata).toBe(true);
    expect(sub.actionTypes).toEqual(new Set(['ton_transfer']));
    expect(sub.supportedActionTypes).toEqual(new Set(V1_ACTION_TYPES));

    // Empty arrays and nulls keep too.
    send({
      types: ['actions'],
      addresses: [RAW_B],
      action_types: [],
      supported_action_types: [],
      min_finality: null,
      include_address_book: null,
    });
    sub = s.subscription;
    expect(sub.actionTypes).toEqual(new Set(['ton_transfer']));
    expect(sub.supportedActionTypes).toEqual(new Set(V1_ACTION_TYPES));
    expect(sub.minFinality).toBe('pending');
    expect(sub.includeAddressBook).toBe(true);

    // Given values change them.
    send({
      types: ['actions'],
      addresses: [RAW_B],
      action_types: ['jetton_transfer'],
      supported_action_types: ['v3'],
      min_finality: 'confirmed',
      include_address_book: false,
      include_metadata: false,
    });
    sub = s.subscription;
    expect(sub.actionTypes).toEqual(new Set(['jetton_transfer']));
    expect(sub.supportedActionTypes).toEqual(expandSupportedActionTypes(['v3']));
    expect(sub.minFinality).toBe('confirmed');
    expect(sub.includeAddressBook).toBe(false);
    expect(sub.includeMetadata).toBe(false);

    // Leaving min_finality out does not reset it to finalized.
    send({ types: ['actions'], addresses: [RAW_B] });
    expect(s.subscription.minFinality).toBe('confirmed');
  });

  it('limits addresses only when the limit is > 0, counting from 0 on every subscribe', () => {
    const body = JSON.stringify({
      operation: 'subscribe',
      id: 'l',
      types: ['transactions'],
      addresses: [RAW_A, RAW_B],
    });
    expect(JSON.stringify(ws(1).handle(body))).toBe(
      '{"id":"l","error":"address limit exceeded: current 0 + new 2 > max 1"}',
    );
    expect(ws(2).handle(body)).toEqual({ id: 'l', status: 'subscribed' });
    expect(ws(0).handle(body)).toEqual({ id: 'l', status: 'subscribed' });
    expect(ws(-1).handle(body)).toEqual({ id: 'l', status: 'subscribed' });
    const s = ws(2);
    s.handle(body);
    expect(s.handle(body)).toEqual({ id: 'l', status: 'subscribed' });
    // Duplicates count once; validation comes first.
    const dup = JSON.stringify({
      operation: 'subscribe',
      types: ['transactions'],
      addresses: [RAW_A, ADDR_A.toString()],
    });
    expect(ws(1).handle(dup)).toEqual({ status: 'subscribed' });
    const bad = JSON.stringify({ operation: 'subscribe', types: ['transactions'], addresses: [RAW_A, RAW_B, 'x'] });
    expect(ws(1).handle(bad)).toEqual({ error: 'invalid address: x' });
  });

  describe('unsubscribe', () => {
    function subscribed(): WsSession {
      const s = ws();
      s.handle(
        JSON.stringify({
          operation: 'subscribe',
          types: ['transactions', 'trace'],
          addresses: [RAW_A, RAW_B],
          trace_external_hash_norms: [HASH, HASH2],
        }),
      );
      return s;
    }

    it('needs addresses or hashes', () => {
      const s = subscribed();
      const msg = 'addresses or trace_external_hash_norms are required';
      expect(s.handle('{"operation":"unsubscribe","id":"2"}')).toEqual({ id: '2', error: msg });
      expect(s.handle('{"operation":"unsubscribe","addresses":[],"trace_external_hash_norms":null}')).toEqual({
        error: msg,
      });
    });

    it('rejects a bad address before a blank hash, and decoding errors, all with the id', () => {
      const s = subscribed();
      const before = s.subscription;
      expect(
        s.handle(
          JSON.stringify({
            operation: 'unsubscribe',
            id: '3',
            addresses: [RAW_A, 'x'],
            trace_external_hash_norms: [''],
          }),
        ),
      ).toEqual({ id: '3', error: 'invalid address: x' });
      expect(
        s.handle(JSON.stringify({ operation: 'unsubscribe', id: '3', trace_external_hash_norms: [HASH, '  '] })),
      ).toEqual({ id: '3', error: 'trace_external_hash_norms contains empty value' });
      expect(s.handle(JSON.stringify({ operation: 'unsubscribe', id: '3', addresses: RAW_A }))).toEqual({
        id: '3',
        error: 'invalid unsubscribe request: addresses: cannot unmarshal string into array of strings',
      });
      expect(s.subscription).toBe(before);
    });

    it('removes the given entries in any form, leaves types, and acks no-ops', () => {
      const s = subscribed();
      expect(
        JSON.stringify(
          s.handle(
            JSON.stringify({
              operation: 'unsubscribe',
              id: '2',
              addresses: [ADDR_A.toString({ bounceable: false })],
              trace_external_hash_norms: [` ${HASH} `],
              // Not fields of an unsubscribe: ignored, even when malformed.
              types: 5,
              min_finality: 'soon',
            }),
          ),
        ),
      ).toBe('{"id":"2","status":"unsubscribed"}');
      const sub = s.subscription;
      expect([...sub.addresses]).toEqual([RAW_B]);
      expect([...sub.traceHashes]).toEqual([HASH2]);
      expect([...sub.types]).toEqual(['transactions', 'trace']);
      expect(
        s.handle(JSON.stringify({ operation: 'unsubscribe', addresses: [RAW_A], trace_external_hash_norms: ['zz'] })),
      ).toEqual({
        status: 'unsubscribed',
      });
      expect([...s.subscription.addresses]).toEqual([RAW_B]);
    });

    it('acks on a fresh connection too', () => {
      expect(ws().handle(JSON.stringify({ operation: 'unsubscribe', addresses: [RAW_A] }))).toEqual({
        status: 'unsubscribed',
      });
    });
  });

  it('replaces the subscription object on a change, never mutating a given one', () => {
    const s = ws();
    const initial = s.subscription;
    s.handle('{"operation":"ping"}');
    expect(s.subscription).toBe(initial);
    s.handle(JSON.stringify({ operation: 'subscribe', types: ['transactions'], addresses: [RAW_A] }));
    const first = s.subscription;
    expect(first).not.toBe(initial);
    expect(initial.types.size).toBe(0);
    s.handle(JSON.stringify({ operation: 'unsubscribe', addresses: [RAW_A] }));
    expect(s.subscription).not.toBe(first);
    expect([...first.addresses]).toEqual([RAW_A]);
    expect(s.subscription.addresses.size).toBe(0);
  });
});
