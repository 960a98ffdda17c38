import { describe, expect, it } from 'vitest';
import { ClientFilter, MAX_ARMED_TRACES } from './client-filter.ts';
import type {
  AccountFeedEvent,
  FeedEvent,
  Finality,
  InvalidationFeedEvent,
  Json,
  StreamAction,
  StreamTraceNode,
  TraceFeedEvent,
} from './events.ts';
import { expandSupportedActionTypes, type StreamEventType, type Subscription } from './subscription.ts';

// Raw addresses: A and B are the client's, C and D are strangers, W a jetton wallet, M its master.
const addr = (c: string) => `0:${c.repeat(64)}`;
const A = addr('A');
const B = addr('B');
const C = addr('C');
const D = addr('D');
const W = addr('E');
const M = addr('F');
const KEY = 'ewJqKiQK0MOpvFi6KJELydA8uGkaJovjoAQXJxPoWO0=';
const KEY2 = 'RXbHkz1AgTiLysB2nPpmJ9y4L1uJHS/24Dcll2OnKWk=';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function sub(over: Partial<Omit<Subscription, 'types'>> & { types?: StreamEventType[] } = {}): Subscription {
  return {
    types: new Set(over.types ?? ['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change']),
    addresses: over.addresses ?? new Set([A, B]),
    traceHashes: over.traceHashes ?? new Set([KEY]),
    minFinality: over.minFinality ?? 'pending',
    includeAddressBook: over.includeAddressBook ?? false,
    includeMetadata: over.includeMetadata ?? false,
    actionTypes: over.actionTypes ?? null,
    supportedActionTypes: over.supportedActionTypes ?? expandSupportedActionTypes(['latest']),
  };
}

/** A v3-shaped transaction, cut down to what the filter reads plus a marker. */
function tx(account: string, lt: string, hash: string, from: string | null, to: (string | null)[]): Json {
  return {
    account,
    hash,
    lt,
    in_msg: { hash: `in-${hash}`, source: from, destination: account },
    out_msgs: to.map((d, i) => ({ hash: `out-${hash}-${i}`, source: account, destination: d })),
    finality: 'pending',
  };
}

function action(
  id: string,
  type: string,
  accounts: string[],
  addresses: string[],
  ancestorType: string[] = [],
): StreamAction {
  return { json: { action_id: id, type, accounts, finality: 'pending' }, ancestorType, addresses };
}

const entry = (name: string): Json => ({ user_friendly: name, domain: null, interfaces: [] });
const BOOK: Record<string, Json> = { [A]: entry('a'), [B]: entry('b'), [C]: entry('c'), [D]: entry('d') };
const META: Record<string, Json> = {
  [C]: { is_indexed: true, token_info: [] },
  [D]: { is_indexed: false, token_info: [] },
};

const TREE: StreamTraceNode = {
  tx_hash: 'h1',
  in_msg_hash: KEY2,
  children: [
    { tx_hash: 'h2', in_msg_hash: 'in-h2', children: [] },
    { tx_hash: 'h3', in_msg_hash: 'in-h3', children: null },
  ],
};

// lt order: h1 < h2 < h3 < h4 as integers, but not as strings ("9" > "10").
const T1 = tx(C, '9', 'h1', null, [A, D]);
const T2 = tx(A, '10', 'h2', C, [null]);
const T3 = tx(D, '99999999999999999999', 'h3', C, []);
const T4 = tx(B, '100000000000000000000', 'h4', D, [C]);

function traceEvent(over: Partial<TraceFeedEvent> = {}): TraceFeedEvent {
  return deepFreeze({
    kind: 'trace',
    finality: 'pending',
    traceKey: KEY,
    transactions: [T1, T2, T3, T4],
    actions: [
      action('a1', 'ton_transfer', [A, C], [A, C]),
      action('a2', 'jetton_transfer', [D], [D, M]),
      action('a3', 'call_contract', [B], [B, D]),
    ],
    tree: TREE,
    classified: true,
    ...over,
  } satisfies TraceFeedEvent);
}

function accountEvent(over: Partial<AccountFeedEvent> = {}): AccountFeedEvent {
  return deepFreeze({
    kind: 'account',
    finality: 'confirmed',
    account: W,
    state: { hash: 'sh', balance: '1', extra_currencies: null, account_status: 'active' },
    jetton: { address: W, balance: '5', owner: A, jetton: M, last_transaction_lt: '7' },
    addressBook: { [W]: entry('w'), [A]: entry('a'), [M]: entry('m') },
    metadata: { [M]: { is_indexed: true, token_info: [] } },
    ...over,
  } satisfies AccountFeedEvent);
}

const invalidation = (traceKey = KEY): InvalidationFeedEvent => deepFreeze({ kind: 'trace_invalidated', traceKey });

function run(event: FeedEvent, s: Subscription, filter = new ClientFilter()): Json[] {
  const before = JSON.stringify(event);
  const out = [...filter.notificationsFor(event, s)];
  expect(JSON.stringify(event)).toBe(before);
  return out;
}

const types = (notes: Json[]) => notes.map((n) => n.type);
const byType = (notes: Json[], type: string) => notes.find((n) => n.type === type);

describe('transactions (§3.2)', () => {
  it('keeps only subscribed accounts, ordered by lt descending as integers', () => {
    const n = byType(run(traceEvent(), sub()), 'transactions')!;
    expect(Object.keys(n)).toEqual(['type', 'finality', 'trace_external_hash_norm', 'transactions']);
    expect(n).toEqual({
      type: 'transactions',
      finality: 'pending',
      trace_external_hash_norm: KEY,
      transactions: [T4, T2],
    });
    // The very objects of the event, not copies.
    expect((n.transactions as Json[])[0]).toBe(T4);
  });

  it('sorts an event given in any order', () => {
    const e = traceEvent({ transactions: [T2, T4, T1, T3] });
    const n = byType(run(e, sub({ addresses: new Set([A, B, C, D]) })), 'transactions')!;
    expect((n.transactions as Json[]).map((t) => t.hash)).toEqual(['h4', 'h3', 'h2', 'h1']);
  });

  it('sends nothing when no account matches, or without the type', () => {
    expect(types(run(traceEvent(), sub({ addresses: new Set([W]) })))).not.toContain('transactions');
    expect(types(run(traceEvent(), sub({ types: ['actions'] })))).not.toContain('transactions');
    expect(run(traceEvent({ transactions: [] }), sub({ types: ['transactions'] }))).toEqual([]);
  });

  it('cuts address book and metadata to the accounts, in_msg sources and out_msgs destinations', () => {
    const s = sub({ addresses: new Set([A]), includeAddressBook: true, includeMetadata: true });
    const n = byType(run(traceEvent({ addressBook: BOOK, metadata: META }), s), 'transactions')!;
    expect(Object.keys(n)).toEqual([
      'type',
      'finality',
      'trace_external_hash_norm',
      'transactions',
      'address_book',
      'metadata',
    ]);
    // T2: account A, from C, to nobody (null destination).
    expect(n.address_book).toEqual({ [A]: BOOK[A], [C]: BOOK[C] });
    expect(n.metadata).toEqual({ [C]: META[C] });
    // Keys sorted as Go writes a map.
    const both = byType(run(traceEvent({ addressBook: BOOK }), sub({ includeAddressBook: true })), 'transactions')!;
    expect(Object.keys(both.address_book as Json)).toEqual([A, B, C, D]);
  });

  it('gives {} when asked and nothing applies; leaves out what was not asked for or not fetched', () => {
    const s = sub({ addresses: new Set([A]), includeAddressBook: true, includeMetadata: true });
    const n = byType(run(traceEvent({ addressBook: {}, metadata: { [D]: META[D]! } }), s), 'transactions')!;
    expect(n.address_book).toEqual({});
    expect(n.metadata).toEqual({});
    const notAsked = byType(run(traceEvent({ addressBook: BOOK, metadata: META }), sub()), 'transactions')!;
    expect('address_book' in notAsked || 'metadata' in notAsked).toBe(false);
    const notFetched = byType(
      run(traceEvent(), sub({ includeAddressBook: true, includeMetadata: true })),
      'transactions',
    )!;
    expect('address_book' in notFetched || 'metadata' in notFetched).toBe(false);
    const bookOnly = byType(
      run(traceEvent({ addressBook: BOOK, metadata: META }), sub({ includeAddressBook: true })),
      'transactions',
    )!;
    expect(Object.keys(bookOnly)).toEqual([
      'type',
      'finality',
      'trace_external_hash_norm',
      'transactions',
      'address_book',
    ]);
  });
});

describe('actions (§3.3, §2.4)', () => {
  it('keeps actions naming a subscribed account, in event order, only for classified events', () => {
    const n = byType(run(traceEvent(), sub()), 'actions')!;
    expect(Object.keys(n)).toEqual(['type', 'finality', 'trace_external_hash_norm', 'actions']);
    expect((n.actions as Json[]).map((a) => a.action_id)).toEqual(['a1', 'a3']);
    expect(types(run(traceEvent({ classified: false }), sub()))).toEqual(['transactions']);
    expect(types(run(traceEvent(), sub({ addresses: new Set([W]), traceHashes: new Set() })))).toEqual([]);
  });

  it('applies action_types by exact type', () => {
    const n = byType(
      run(traceEvent(), sub({ actionTypes: new Set(['call_contract', 'jetton_transfer']) })),
      'actions',
    )!;
    expect((n.actions as Json[]).map((a) => a.action_id)).toEqual(['a3']);
    expect(byType(run(traceEvent(), sub({ actionTypes: new Set(['jetton']) })), 'actions')).toBeUndefined();
  });

  it('applies the ancestor rule and the supported set', () => {
    const e = traceEvent({
      actions: [
        action('parent', 'multisig_execute', [A], [A]),
        action('child', 'jetton_transfer', [A], [A, C], ['multisig_execute']),
        action('future', 'cocoon_grant_refund', [A], [A, D]),
      ],
      addressBook: BOOK,
    });
    const ids = (s: Subscription) => ((byType(run(e, s), 'actions')?.actions ?? []) as Json[]).map((a) => a.action_id);
    // latest knows the parent: the child is covered by it.
    expect(ids(sub())).toEqual(['parent', 'future']);
    // v1 does not: the child shows, the parent and the v4 type do not.
    expect(ids(sub({ supportedActionTypes: expandSupportedActionTypes(['v1']) }))).toEqual(['child']);
    // action_types does not bypass the supported set.
    expect(
      ids(
        sub({ supportedActionTypes: expandSupportedActionTypes(['v1']), actionTypes: new Set(['multisig_execute']) }),
      ),
    ).toEqual([]);
    // The address book follows the kept actions' addresses.
    const n = byType(
      run(e, sub({ supportedActionTypes: expandSupportedActionTypes(['v1']), includeAddressBook: true })),
      'actions',
    )!;
    expect(n.address_book).toEqual({ [A]: BOOK[A], [C]: BOOK[C] });
  });

  it('cuts address book and metadata to the kept actions, sorted', () => {
    const s = sub({ includeAddressBook: true, includeMetadata: true });
    const n = byType(run(traceEvent({ addressBook: BOOK, metadata: META }), s), 'actions')!;
    expect(Object.keys(n)).toEqual([
      'type',
      'finality',
      'trace_external_hash_norm',
      'actions',
      'address_book',
      'metadata',
    ]);
    // a1 (A, C) and a3 (B, D); a2's M is not included.
    expect(Object.keys(n.address_book as Json)).toEqual([A, B, C, D]);
    expect(n.metadata).toEqual(META);
  });

  it('ignores an action without accounts for the address match', () => {
    const bare: StreamAction = { json: { action_id: 'x', type: 'ton_transfer' }, ancestorType: [], addresses: [A] };
    expect(byType(run(traceEvent({ actions: [bare] }), sub()), 'actions')).toBeUndefined();
  });
});

describe('trace (§3.4)', () => {
  it('sends the whole trace to a subscribed hash, whatever the addresses', () => {
    const notes = run(traceEvent(), sub({ types: ['trace'], addresses: new Set() }));
    expect(types(notes)).toEqual(['trace']);
    const n = notes[0]!;
    expect(Object.keys(n)).toEqual([
      'type',
      'finality',
      'trace_external_hash_norm',
      'trace',
      'transactions',
      'actions',
    ]);
    expect(n.trace).toBe(TREE);
    expect(n.transactions).toEqual({ h1: T1, h2: T2, h3: T3, h4: T4 });
    expect(Object.keys(n.transactions as Json)).toEqual(['h1', 'h2', 'h3', 'h4']);
    expect((n.actions as Json[]).map((a) => a.action_id)).toEqual(['a1', 'a2', 'a3']);
  });

  it('keys the map by hash in byte order and prefers traceTransactions', () => {
    const withHash = (t: Json) => ({ ...t, trace_external_hash: KEY2 });
    const e = traceEvent({
      transactions: [tx(A, '1', 'b', null, []), tx(A, '2', 'B', null, []), tx(A, '3', 'a', null, [])],
    });
    expect(Object.keys(byType(run(e, sub()), 'trace')!.transactions as Json)).toEqual(['B', 'a', 'b']);
    const e2 = traceEvent({ traceTransactions: [T1, T2].map(withHash) });
    const n = byType(run(e2, sub()), 'trace')!;
    expect(n.transactions).toEqual({ h1: withHash(T1), h2: withHash(T2) });
    // transactions notifications still use the plain ones.
    expect((byType(run(e2, sub()), 'transactions')!.transactions as Json[])[0]).toBe(T4);
  });

  it('filters its actions by action_types and the supported set, leaving the key out when none is left', () => {
    const ids = (s: Subscription) => byType(run(traceEvent(), s), 'trace')!.actions as Json[] | undefined;
    expect(ids(sub({ actionTypes: new Set(['jetton_transfer']) }))?.map((a) => a.action_id)).toEqual(['a2']);
    const none = byType(run(traceEvent(), sub({ actionTypes: new Set(['nft_mint']) })), 'trace')!;
    expect('actions' in none).toBe(false);
    const noActions = byType(run(traceEvent({ actions: [] }), sub()), 'trace')!;
    expect('actions' in noActions).toBe(false);
    const covered = traceEvent({ actions: [action('c', 'jetton_transfer', [A], [A], ['multisig_execute'])] });
    expect('actions' in byType(run(covered, sub()), 'trace')!).toBe(false);
  });

  it('carries address book and metadata whole, only when asked', () => {
    const e = traceEvent({ addressBook: BOOK, metadata: META });
    const n = byType(run(e, sub({ includeAddressBook: true, includeMetadata: true })), 'trace')!;
    expect(Object.keys(n)).toEqual([
      'type',
      'finality',
      'trace_external_hash_norm',
      'trace',
      'transactions',
      'actions',
      'address_book',
      'metadata',
    ]);
    expect(n.address_book).toBe(e.addressBook);
    expect(n.metadata).toBe(e.metadata);
    const plain = byType(run(e, sub()), 'trace')!;
    expect('address_book' in plain || 'metadata' in plain).toBe(false);
  });

  it('needs the type, the hash, a tree and a classified event', () => {
    expect(types(run(traceEvent(), sub({ types: ['transactions', 'actions'] })))).toEqual(['transactions', 'actions']);
    expect(types(run(traceEvent(), sub({ traceHashes: new Set([KEY2]) })))).toEqual(['transactions', 'actions']);
    expect(types(run(traceEvent({ tree: null }), sub()))).toEqual(['transactions', 'actions']);
    expect(types(run(traceEvent({ classified: false }), sub()))).toEqual(['transactions']);
  });
});

describe('one trace event', () => {
  it('yields transactions, then actions, then trace', () => {
    expect(types(run(traceEvent(), sub()))).toEqual(['transactions', 'actions', 'trace']);
  });

  it('is gated by min_finality for all three', () => {
    const at = (finality: Finality, minFinality: Finality) =>
      types(run(traceEvent({ finality }), sub({ minFinality })));
    expect(at('pending', 'confirmed')).toEqual([]);
    expect(at('confirmed', 'confirmed')).toEqual(['transactions', 'actions', 'trace']);
    expect(at('finalized', 'confirmed')).toEqual(['transactions', 'actions', 'trace']);
    expect(at('confirmed', 'finalized')).toEqual([]);
    expect(at('finalized', 'finalized')).toEqual(['transactions', 'actions', 'trace']);
    expect(run(traceEvent({ finality: 'finalized' }), sub())[0]!.finality).toBe('finalized');
  });

  it('never changes the event and shares derived parts between clients', () => {
    const e = traceEvent({ addressBook: BOOK, metadata: META });
    const snapshot = structuredClone(e);
    const f1 = new ClientFilter();
    const f2 = new ClientFilter();
    const one = f1.notificationsFor(e, sub({ includeAddressBook: true }));
    const two = f2.notificationsFor(e, sub({ includeMetadata: true, addresses: new Set([D]) }));
    expect(e).toEqual(snapshot);
    expect(byType([...one], 'trace')!.transactions).toBe(byType([...two], 'trace')!.transactions);
  });
});

describe('invalidation set (§3.7)', () => {
  const expected = { type: 'trace_invalidated', trace_external_hash_norm: KEY };

  it('is armed by non-final data and delivers one invalidation, regardless of the subscription', () => {
    const f = new ClientFilter();
    expect(run(traceEvent({ finality: 'confirmed' }), sub(), f)).toHaveLength(3);
    expect(f.invalidationSet.has(KEY)).toBe(true);
    // The client no longer subscribes to anything of it: still owed.
    const notes = run(invalidation(), sub({ types: ['account_state_change'], addresses: new Set([W]) }), f);
    expect(notes).toEqual([expected]);
    expect(Object.keys(notes[0]!)).toEqual(['type', 'trace_external_hash_norm']);
    expect(run(invalidation(), sub(), f)).toEqual([]);
  });

  it('is armed by any one of transactions, actions or trace', () => {
    for (const s of [
      sub({ types: ['transactions'] }),
      sub({ types: ['actions'] }),
      sub({ types: ['trace'], addresses: new Set() }),
    ]) {
      const f = new ClientFilter();
      run(traceEvent(), s, f);
      expect(run(invalidation(), s, f)).toEqual([expected]);
    }
  });

  it('is disarmed by finalized data', () => {
    const f = new ClientFilter();
    run(traceEvent({ finality: 'pending' }), sub(), f);
    run(traceEvent({ finality: 'finalized' }), sub({ types: ['trace'] }), f);
    expect(f.invalidationSet.size).toBe(0);
    expect(run(invalidation(), sub(), f)).toEqual([]);
    // Re-armed by later non-final data.
    run(traceEvent({ finality: 'confirmed' }), sub(), f);
    expect(run(invalidation(), sub(), f)).toEqual([expected]);
  });

  it('holds at most MAX_ARMED_TRACES traces, forgetting the one armed longest ago', () => {
    const f = new ClientFilter();
    const keyOf = (i: number) => `k${i}`;
    for (let i = 0; i <= MAX_ARMED_TRACES; i++) run(traceEvent({ traceKey: keyOf(i) }), sub(), f);
    expect(f.invalidationSet.size).toBe(MAX_ARMED_TRACES);
    expect(f.invalidationSet.has(keyOf(0))).toBe(false);
    expect(f.invalidationSet.has(keyOf(MAX_ARMED_TRACES))).toBe(true);
    // Re-armed, the oldest comes last and outlives the next one armed before it.
    run(traceEvent({ traceKey: keyOf(1) }), sub(), f);
    run(traceEvent({ traceKey: 'new' }), sub(), f);
    expect(f.invalidationSet.has(keyOf(1))).toBe(true);
    expect(f.invalidationSet.has(keyOf(2))).toBe(false);
  });

  it('is not armed by events the client was not sent', () => {
    const f = new ClientFilter();
    run(traceEvent(), sub({ addresses: new Set([W]), traceHashes: new Set() }), f);
    run(traceEvent(), sub({ minFinality: 'finalized' }), f);
    run(traceEvent({ traceKey: KEY2 }), sub(), f);
    run(accountEvent(), sub(), f);
    expect([...f.invalidationSet]).toEqual([KEY2]);
    expect(run(invalidation(), sub(), f)).toEqual([]);
    expect(run(invalidation(KEY2), sub(), f)).toEqual([{ type: 'trace_invalidated', trace_external_hash_norm: KEY2 }]);
  });

  it('still delivers to a connection without a subscription, which gets nothing else', () => {
    const f = new ClientFilter();
    run(traceEvent(), sub(), f);
    expect(f.notificationsFor(traceEvent(), null)).toEqual([]);
    expect(f.notificationsFor(accountEvent(), null)).toEqual([]);
    expect(f.notificationsFor(invalidation(), null)).toEqual([expected]);
  });
});

describe('account events (§3.5, §3.6)', () => {
  it('sends account_state_change for a subscribed account, never with an address book', () => {
    const e = accountEvent();
    const notes = run(e, sub({ addresses: new Set([W]), includeAddressBook: true, includeMetadata: true }));
    expect(types(notes)).toEqual(['account_state_change', 'jettons_change']);
    const n = notes[0]!;
    expect(Object.keys(n)).toEqual(['type', 'finality', 'account', 'state']);
    expect(n).toEqual({ type: 'account_state_change', finality: 'confirmed', account: W, state: e.state });
  });

  it('sends jettons_change when the wallet or its owner is subscribed, book and metadata whole when asked', () => {
    const e = accountEvent();
    const owner = run(e, sub({ addresses: new Set([A]), includeAddressBook: true, includeMetadata: true }));
    expect(types(owner)).toEqual(['jettons_change']);
    expect(Object.keys(owner[0]!)).toEqual(['type', 'finality', 'jetton', 'address_book', 'metadata']);
    expect(owner[0]!.jetton).toBe(e.jetton);
    expect(owner[0]!.address_book).toBe(e.addressBook);
    expect(owner[0]!.metadata).toBe(e.metadata);
    const plain = run(e, sub({ addresses: new Set([A]) }));
    expect(Object.keys(plain[0]!)).toEqual(['type', 'finality', 'jetton']);
    const metaMissing = run(
      accountEvent({ metadata: undefined }),
      sub({ addresses: new Set([A]), includeMetadata: true }),
    );
    expect(Object.keys(metaMissing[0]!)).toEqual(['type', 'finality', 'jetton']);
    // Nothing for the master, nor without a jetton.
    expect(run(e, sub({ addresses: new Set([M]) }))).toEqual([]);
    expect(run(accountEvent({ jetton: undefined }), sub({ addresses: new Set([A]) }))).toEqual([]);
  });

  it('follows the types and min_finality', () => {
    const e = accountEvent();
    const s = (t: StreamEventType[], minFinality: Finality = 'pending') =>
      types(run(e, sub({ types: t, addresses: new Set([W]), minFinality })));
    expect(s(['jettons_change'])).toEqual(['jettons_change']);
    expect(s(['account_state_change'])).toEqual(['account_state_change']);
    expect(s(['transactions', 'actions'])).toEqual([]);
    expect(s(['account_state_change', 'jettons_change'], 'confirmed')).toEqual([
      'account_state_change',
      'jettons_change',
    ]);
    expect(s(['account_state_change', 'jettons_change'], 'finalized')).toEqual([]);
    expect(
      types(run(accountEvent({ finality: 'finalized' }), sub({ addresses: new Set([W]), minFinality: 'finalized' }))),
    ).toEqual(['account_state_change', 'jettons_change']);
  });

  it('gives every client the same objects for the same variant', () => {
    const e = accountEvent();
    const s = sub({ addresses: new Set([W]) });
    const one = new ClientFilter().notificationsFor(e, s);
    const two = new ClientFilter().notificationsFor(e, s);
    expect(one[0]).toBe(two[0]);
    expect(one[1]).toBe(two[1]);
    const withBook = new ClientFilter().notificationsFor(e, sub({ addresses: new Set([W]), includeAddressBook: true }));
    expect(withBook[1]).not.toBe(one[1]);
    expect(Object.keys(withBook[1]!)).toEqual(['type', 'finality', 'jetton', 'address_book']);
  });
});
