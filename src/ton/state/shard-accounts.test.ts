import { type Account, beginCell, type Cell, Dictionary, storeStorageInfo } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { hasVectors, loadVector, loadVectors } from '../../../test/helpers/vectors.ts';
import { buildHashmapAug, loadHashmapAug, loadHmLabel, storeHmLabel } from '../dict/index.ts';
import { readmeFiles } from '../vectors-readme.test-util.ts';
import { isPruned, type Prunable } from './pruned.ts';
import {
  buildShardAccounts,
  combineDepthBalanceInfo,
  type DepthBalanceInfo,
  depthBalanceInfoOf,
  loadAccountOrNone,
  loadDepthBalanceInfo,
  loadShardAccount,
  loadShardAccounts,
  type ShardAccount,
  shardAccountEntries,
  shardAccountExtra,
  shardAccountsCodec,
  storeAccountOrNone,
  storeDepthBalanceInfo,
  storeShardAccount,
  storeShardAccounts,
} from './shard-accounts.ts';
import { loadShardState } from './shard-state.ts';
import { augNodes, cellOf, nodeExtra, proofRoot, realStates, rootOf } from './vectors.test-util.ts';

type Json = Record<string, unknown>;

function accountOf(a: Prunable<Account | null>): Account {
  if (a === null || isPruned(a)) throw new Error('expected a present account');
  return a;
}

function codeHash(a: Account): string | undefined {
  return a.storage.state.type === 'active' ? a.storage.state.state.code?.hash().toString('hex') : undefined;
}

function dataHash(a: Account): string | undefined {
  return a.storage.state.type === 'active' ? a.storage.state.state.data?.hash().toString('hex') : undefined;
}

function labelOf(node: Cell, keyBits: number) {
  return loadHmLabel(node.beginParse(), keyBits);
}

function dbiCell(v: DepthBalanceInfo) {
  return cellOf(storeDepthBalanceInfo(v));
}

describe.skipIf(!hasVectors)('Account and ShardAccount on the real account states', () => {
  const accountFiles = loadVectors<Json>('accounts').filter(({ data }) =>
    ['account_state', 'shard_account'].includes(data.kind as string),
  );

  it('covers every account state with a BoC (the code+data-only files have no Account cell)', () => {
    expect(accountFiles.length).toBe(13);
  });

  it.each(accountFiles.map(({ file, data }) => [file, data] as const))('%s re-encodes bit-exactly', (_, v) => {
    const root = rootOf(v.boc_base64 as string);
    const verification = v.verification as Json;
    const decoded = verification.decoded as Json;
    let account: Account;
    if (v.kind === 'shard_account') {
      const sa = loadShardAccount(root.beginParse());
      const again = cellOf(storeShardAccount(sa));
      // tonutils-go tvm_replay_fat_block_66519406.json states both hashes.
      const expected = v.expected as Json;
      expect(again.hash().toString('hex')).toBe(expected.shard_account_root_hash);
      expect(again.refs[0]!.hash().toString('hex')).toBe(expected.account_root_hash);
      const shardInfo = decoded.shard_account as Json;
      expect(sa.lastTransHash.toString('hex')).toBe(shardInfo.last_trans_hash);
      expect(sa.lastTransLt).toBe(BigInt(shardInfo.last_trans_lt as string));
      account = accountOf(sa.account);
    } else {
      const s = root.beginParse();
      account = accountOf(loadAccountOrNone(s));
      expect(s.remainingBits + s.remainingRefs).toBe(0);
      expect(cellOf(storeAccountOrNone(account)).hash().toString('hex')).toBe(verification.root_hash);
    }
    // Values the collector read with @ton/core alongside the source's own assertions.
    expect(account.addr.toRawString()).toBe(decoded.address);
    expect(account.storage.balance.coins).toBe(BigInt(decoded.balance as string));
    expect(account.storage.lastTransLt).toBe(BigInt(decoded.last_trans_lt as string));
    expect(account.storage.state.type).toBe(decoded.state);
    expect(account.storageStats.lastPaid).toBe(decoded.last_paid);
    if (decoded.code_hash) expect(codeHash(account)).toBe(decoded.code_hash);
    if (decoded.data_hash) expect(dataHash(account)).toBe(decoded.data_hash);
  });

  it('matches what the sources assert about frozen, storage-extra and storage-info accounts', () => {
    const frozen = accountOf(
      loadAccountOrNone(
        rootOf(loadVector<Json>('accounts', 'account_frozen_pytoniq.json').boc_base64 as string).beginParse(),
      ),
    );
    expect(frozen.storage.state.type).toBe('frozen'); // pytoniq-core: state == account_frozen
    const extraV = loadVector<Json>('accounts', 'account_storage_extra_dict_pytoniq.json');
    const extra = accountOf(loadAccountOrNone(rootOf(extraV.boc_base64 as string).beginParse()));
    const dictHash = extra.storageStats.storageExtra?.dictHash;
    expect(dictHash?.toString(16).padStart(64, '0')).toBe((extraV.expected as Json).storage_extra_dict_hash_hex);
    const infoV = loadVector<Json>('accounts', 'account_storageinfo_0_03f73ef5.json');
    const info = accountOf(loadAccountOrNone(rootOf(infoV.boc_base64 as string).beginParse()));
    const want = (infoV.expected as Json).storage_info as Json;
    const used = want.used as Json;
    expect([info.storageStats.used.cells, info.storageStats.used.bits]).toEqual([
      BigInt(used.cells as number),
      BigInt(used.bits as number),
    ]);
    expect(info.storageStats.lastPaid).toBe(want.lastPaid);
    expect(info.storageStats.duePayment ?? null).toBeNull();
    expect(info.storageStats.storageExtra).toBeNull();
  });

  it('StorageInfo cell hashes that ton-core StorageInfo.spec.ts asserts (old format, empty storage_extra)', () => {
    const v = loadVector<Json>('accounts', 'account_storageinfo_0_03f73ef5.json');
    const exp = v.expected as Json;
    const root = rootOf(v.boc_base64 as string);
    const account = accountOf(loadAccountOrNone(root.beginParse()));
    const hashOf = (info: Account['storageStats']) => cellOf(storeStorageInfo(info)).hash().toString('hex');
    // The account as our codec decoded it, written back as a lone StorageInfo cell (@ton/core's writer).
    expect(hashOf(account.storageStats)).toBe(exp.storage_info_cell_hash_old_format);
    expect(hashOf({ ...account.storageStats, storageExtra: { dictHash: 0n } })).toBe(
      exp.storage_info_cell_hash_with_empty_storage_extra,
    );
    // The StorageInfo bits of the original Account cell, cut out field by field (block.tlb:256-266):
    // account$1 addr:(addr_std$10 anycast:$0 workchain_id:int8 address:bits256) storage_stat:StorageInfo …
    // storage_info$_ used:(cells:(VarUInteger 7) bits:(VarUInteger 7)) storage_extra:$000 last_paid:uint32
    // due_payment:(Maybe Grams). The old format's zero public_cells has the same 3 bits as storage_extra_none.
    const s = root.beginParse();
    expect(s.loadUint(4)).toBe(0b1100);
    s.skip(8 + 256);
    const start = s.clone();
    const skipVarUint = (lenBits: number) => s.skip(s.loadUint(lenBits) * 8);
    skipVarUint(3);
    skipVarUint(3);
    expect(s.loadUint(3)).toBe(0);
    s.skip(32);
    if (s.loadBit()) skipVarUint(4);
    const part = beginCell()
      .storeBits(start.loadBits(start.remainingBits - s.remainingBits))
      .endCell();
    expect(part.hash().toString('hex')).toBe(exp.storage_info_cell_hash_old_format);
  });

  it('replay vectors: both ShardAccounts re-encode, the later one points at the replayed transaction', () => {
    const replays = loadVectors<Json>('replay');
    // The README lists the replay vectors (two tonutils-go regressions); the loop must run once for each.
    const listed = readmeFiles('replay');
    expect(listed.length).toBe(2);
    expect(replays.map(({ file }) => `replay/${file}`)).toEqual(listed);
    let checked = 0;
    for (const { file, data } of replays) {
      for (const key of ['from_shard_account_boc_base64', 'to_shard_account_boc_base64']) {
        const root = rootOf(data[key] as string);
        const sa = loadShardAccount(root.beginParse());
        expect(cellOf(storeShardAccount(sa)).hash().toString('hex'), `${file} ${key}`).toBe(
          root.hash().toString('hex'),
        );
      }
      const after = loadShardAccount(rootOf(data.to_shard_account_boc_base64 as string).beginParse());
      const expected = data.expected as Json;
      expect(after.lastTransHash.toString('hex')).toBe(expected.tx_hash);
      expect(after.lastTransLt).toBe(BigInt((data.ids as Json).lt as number));
      checked++;
    }
    expect(checked).toBe(listed.length);
  });

  it('a pruned Account proof re-encodes to the full account’s hash', () => {
    const v = loadVector<Json>('liteserver', 'account_state_test_pruned_proof.json');
    const inner = proofRoot(rootOf(v.boc_base64 as string));
    const account = loadAccountOrNone(inner.beginParse());
    const again = cellOf(storeAccountOrNone(account));
    const full = loadVector<Json>('accounts', 'account_state_test_c8af6e3c.json');
    // ton-core accountStateTestPruned.txt: the virtual root is the full account c8af6e3c…
    expect(again.hash(0).toString('hex')).toBe((v.expected as Json).virtual_root_equals_full_account_hash);
    expect(again.hash(0).toString('hex')).toBe(
      rootOf(full.boc_base64 as string)
        .hash()
        .toString('hex'),
    );
  });
});

describe.skipIf(!hasVectors)('ShardAccounts in real states', () => {
  // `original` is the accounts ref of the state cell as it arrived (shard_state#9023afe2 … out_msg_queue_info
  // before_split accounts …: the second ref; a split_state's halves are its two refs).
  const withAccounts = hasVectors
    ? realStates().flatMap((st) => {
        const s = loadShardState(st.cell.beginParse());
        const halves =
          s.kind === 'shard_state'
            ? [{ h: s, cell: st.cell }]
            : [s.left, s.right].map((h, i) => ({ h, cell: st.cell.refs[i]! }));
        return halves.flatMap(({ h, cell }) =>
          isPruned(h) || isPruned(h.accounts)
            ? []
            : [{ label: st.label, accounts: h.accounts, original: cell.refs[1]! }],
        );
      })
    : [];

  it('decodes every account a state holds, each ShardAccount re-encoding to its leaf’s bits', () => {
    let leaves = 0;
    let pruned = 0;
    for (const { label, accounts } of withAccounts) {
      const dict = shardAccountEntries(accounts);
      pruned += dict.pruned;
      for (const node of augNodes(accounts.root!, 256).filter((n) => n.isLeaf)) {
        const s = node.afterLabel.clone();
        loadDepthBalanceInfo(s);
        const valueBits = s.clone();
        const value = loadShardAccount(s);
        const again = cellOf(storeShardAccount(value));
        expect(again.bits.equals(valueBits.loadBits(valueBits.remainingBits)), label).toBe(true);
        expect(again.refs[0]!.hash().equals(node.cell.refs[0]!.hash()), label).toBe(true);
        leaves++;
      }
      expect(dict.entries.length).toBe(augNodes(accounts.root!, 256).filter((n) => n.isLeaf).length);
    }
    expect(withAccounts.length).toBeGreaterThanOrEqual(25);
    expect(leaves).toBeGreaterThanOrEqual(815);
    expect(pruned).toBeGreaterThanOrEqual(17000);
  });

  it('every leaf is label + the extra the node derives from its account + the ShardAccount', () => {
    let checked = 0;
    for (const { accounts } of withAccounts) {
      for (const node of augNodes(accounts.root!, 256).filter((n) => n.isLeaf)) {
        const s = node.afterLabel.clone();
        const stored = loadDepthBalanceInfo(s);
        const value = loadShardAccount(s);
        if (isPruned(value.account)) continue;
        expect(dbiCell(shardAccountExtra(value)).hash()).toEqual(dbiCell(stored).hash());
        const b = beginCell();
        storeHmLabel(b, node.keyBits, labelOf(node.cell, node.keyBits).bits, node.keyBits);
        const leaf = b
          .store(storeDepthBalanceInfo(shardAccountExtra(value)))
          .store(storeShardAccount(value))
          .endCell();
        expect(leaf.hash().toString('hex')).toBe(node.cell.hash().toString('hex'));
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(600);
  });

  it('every fork is label + both refs + the children’s extras combined (split_depth max, balances summed)', () => {
    let forks = 0;
    for (const { accounts } of withAccounts) {
      for (const node of augNodes(accounts.root!, 256)) {
        if (node.isLeaf || node.children.some((c) => c.isExotic)) continue;
        const [l, r] = node.children.map((c) => nodeExtra(c, node.n - 1, loadDepthBalanceInfo));
        const stored = loadDepthBalanceInfo(node.afterLabel.clone());
        // A proof may prune a balance's extra currencies; such sums cannot be checked.
        if ([l!, r!, stored].some((x) => x.balance.otherPruned)) continue;
        const combined = combineDepthBalanceInfo(l!, r!);
        expect(dbiCell(combined).hash()).toEqual(dbiCell(stored).hash());
        const label = labelOf(node.cell, node.keyBits);
        const b = beginCell();
        storeHmLabel(b, label.len, label.bits, node.keyBits);
        const fork = b
          .storeRef(node.children[0]!)
          .storeRef(node.children[1]!)
          .store(storeDepthBalanceInfo(combined))
          .endCell();
        expect(fork.hash().toString('hex')).toBe(node.cell.hash().toString('hex'));
        forks++;
      }
    }
    expect(forks).toBeGreaterThanOrEqual(900);
  });

  it('the writer rebuilds every whole subtree (no pruned cell below) from its decoded entries', () => {
    let rebuilt = 0;
    let largest = 0;
    for (const { accounts } of withAccounts) {
      for (const node of augNodes(accounts.root!, 256)) {
        if (node.isLeaf || node.cell.level() !== 0) continue;
        const dict = loadHashmapAug(node.cell.beginParse(), node.keyBits, shardAccountsCodec);
        expect(dict.pruned).toBe(0);
        const built = buildHashmapAug(dict.entries, node.keyBits, shardAccountsCodec);
        expect(built.cell.hash().toString('hex')).toBe(node.cell.hash().toString('hex'));
        rebuilt++;
        largest = Math.max(largest, dict.entries.length);
      }
    }
    expect(rebuilt).toBeGreaterThanOrEqual(11);
    expect(largest).toBeGreaterThanOrEqual(2);
  });

  it('ShardAccounts re-encodes to the state’s original accounts cell', () => {
    expect(withAccounts.length).toBeGreaterThan(0);
    for (const { label, accounts, original } of withAccounts) {
      const cell = cellOf(storeShardAccounts(accounts));
      expect(cell.hash().toString('hex'), label).toBe(original.hash().toString('hex'));
      expect(cell.equals(original), label).toBe(true);
      const back = loadShardAccounts(cell.beginParse());
      expect(cellOf(storeShardAccounts(back)).hash()).toEqual(cell.hash());
    }
  });

  it('rewriting every decoded entry (and total) into the proof’s tree gives the original accounts cell', () => {
    // Every real ShardAccounts here is a proof: most subtrees are pruned, so the node's layout cannot be
    // rebuilt from entries alone. Walk the original tree for its shape and pruned cells only; every leaf is
    // written from the decoded entry under its key (extra + ShardAccount through our storers), every fork
    // from its rewritten children and their combined extra, the root total from the decoded total.
    let entriesWritten = 0;
    let combined = 0;
    for (const { label, accounts, original } of withAccounts) {
      const dict = shardAccountEntries(accounts);
      const byKey = new Map(dict.entries.map((e) => [e.key, e]));
      const used = new Set<bigint>();
      const rewrite = (node: Cell, n: number, prefix: bigint): { cell: Cell; extra: DepthBalanceInfo | null } => {
        if (node.isExotic) return { cell: node, extra: null }; // a pruned subtree stays as it arrived
        const label = labelOf(node, n);
        const key = (prefix << BigInt(label.len)) | label.bits;
        const b = beginCell();
        storeHmLabel(b, label.len, label.bits, n);
        const m = n - label.len;
        if (m === 0) {
          const e = byKey.get(key);
          if (!e) throw new Error(`no decoded entry for the leaf at ${key.toString(16)}`);
          used.add(key);
          b.store(storeDepthBalanceInfo(e.extra)).store(storeShardAccount(e.value));
          entriesWritten++;
          return { cell: b.endCell(), extra: e.extra };
        }
        const l = rewrite(node.refs[0]!, m - 1, key << 1n);
        const r = rewrite(node.refs[1]!, m - 1, (key << 1n) | 1n);
        // The fork's extra: combined from the children when both are known, else the one the proof stored.
        let extra = nodeExtra(node, n, loadDepthBalanceInfo);
        if (l.extra && r.extra && ![l.extra, r.extra].some((x) => x.balance.otherPruned)) {
          extra = combineDepthBalanceInfo(l.extra, r.extra);
          combined++;
        }
        b.storeRef(l.cell).storeRef(r.cell).store(storeDepthBalanceInfo(extra));
        return { cell: b.endCell(), extra };
      };
      const root = rewrite(accounts.root!, 256, 0n).cell;
      expect(used.size, label).toBe(dict.entries.length);
      const cell = cellOf(storeShardAccounts({ root, extra: dict.extra }));
      expect(cell.hash().toString('hex'), label).toBe(original.hash().toString('hex'));
    }
    expect(entriesWritten).toBeGreaterThanOrEqual(815);
    expect(combined).toBeGreaterThanOrEqual(900);
  });
});

describe('ShardAccounts writer and DepthBalanceInfo rules', () => {
  const extra = (pairs: Array<[number, bigint]>) => {
    const d = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
    for (const [k, v] of pairs) d.set(k, v);
    return d;
  };

  it('a fork takes the deeper split_depth and adds grams and each extra currency', () => {
    const l: DepthBalanceInfo = {
      splitDepth: 3,
      balance: {
        coins: 10n,
        other: extra([
          [1, 5n],
          [2, 6n],
        ]),
      },
    };
    const r: DepthBalanceInfo = {
      splitDepth: 7,
      balance: {
        coins: 15n,
        other: extra([
          [2, 4n],
          [3, 1n],
        ]),
      },
    };
    const c = combineDepthBalanceInfo(l, r);
    expect(c.splitDepth).toBe(7);
    expect(c.balance.coins).toBe(25n);
    expect([...(c.balance.other ?? [])].sort()).toEqual([
      [1, 5n],
      [2, 10n],
      [3, 1n],
    ]);
  });

  it('builds an empty dictionary as ahme_empty with a zero total', () => {
    const empty = buildShardAccounts([]);
    expect(empty.root).toBeNull();
    expect(cellOf(storeShardAccounts(empty)).bits.toString()).toBe(
      beginCell().storeUint(0, 11).endCell().bits.toString(),
    );
  });

  it('builds a two-account dictionary whose root total is the sum', () => {
    const mk = (lt: bigint): ShardAccount => ({
      account: null,
      lastTransHash: Buffer.alloc(32, Number(lt)),
      lastTransLt: lt,
    });
    const entries = [
      { key: 1n, value: mk(1n), extra: { splitDepth: 0, balance: { coins: 100n } } },
      { key: 1n << 255n, value: mk(2n), extra: { splitDepth: 0, balance: { coins: 23n } } },
    ];
    const d = buildShardAccounts(entries);
    expect(d.extra.balance.coins).toBe(123n);
    const back = shardAccountEntries(loadShardAccounts(cellOf(storeShardAccounts(d)).beginParse()));
    expect(back.entries.map((e) => [e.key, e.value.lastTransLt])).toEqual([
      [1n, 1n],
      [1n << 255n, 2n],
    ]);
    expect(depthBalanceInfoOf(null).balance.coins).toBe(0n);
  });

  it('rejects split_depth above 30 and an anycast account (CodecError naming the type)', () => {
    const bad = beginCell().storeUint(31, 5).storeCoins(0).storeBit(false).endCell();
    expect(() => loadDepthBalanceInfo(bad.beginParse())).toThrow(
      /DepthBalanceInfo: expected split_depth <= 30, got 31/,
    );
    expect(() => storeDepthBalanceInfo({ splitDepth: 31, balance: { coins: 0n } })).toThrow(/DepthBalanceInfo/);
    // account$1 addr_std$10 anycast:just$1 …
    const anycast = beginCell()
      .storeBit(true)
      .storeUint(0b101, 3)
      .storeUint(0, 5)
      .storeUint(0, 8)
      .storeBuffer(Buffer.alloc(32))
      .endCell();
    expect(() => loadAccountOrNone(anycast.beginParse())).toThrow(/Account: expected addr_std without anycast/);
  });

  it('turns a truncated ShardAccount into a CodecError naming ShardAccount', () => {
    const short = beginCell().storeRef(beginCell().storeBit(false)).storeUint(0, 100).endCell();
    expect(() => loadShardAccount(short.beginParse())).toThrow(/^ShardAccount: /);
  });
});
