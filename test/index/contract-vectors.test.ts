// Real mainnet data through the contract decoders (issue 9): mainnet block 0:8000000000000000:71398501 indexed
// from its BoC with the decoders on. The jetton wallet 0:93503D3A… and its master 0:BDF3FA80… (their states just
// before that block, from the vectors) are detected first, as an earlier block would have; then every transfer,
// burn and mint the block's transactions on that wallet imply must be a row, with the amounts read raw from the
// bodies the block carries — and nothing for wallets the index never detected.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, Cell, loadShardAccount, loadTransaction } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/index.ts';
import { createContractsEnv, type OwnedContractsEnv } from '../../src/index/contracts/index.ts';
import { type AccountInput, decodeUnitContracts } from '../../src/index/decode/contracts/index.ts';
import { createFileSource, type FileSource, indexMcBlock } from '../../src/index/index.ts';
import { writeContractRows } from '../../src/index/write/write-contracts.ts';
import { listBlockTransactions, loadBlockCell } from '../../src/ton/index.ts';
import { setupDatabase, type TestDatabase } from '../helpers/database.ts';
import { VECTORS_DIR } from '../helpers/vectors.ts';

const dir = VECTORS_DIR;
const WALLET = '0:93503D3A286A25F9BDE372166FB330B1B2490F00AB1FE0F5293B6CB61F811219';
const MASTER = '0:BDF3FA8098D129B54B4F73B5BAC5D1E1FD91EB054169C3916DFC8CCD536D1000';

function accountVector(file: string): AccountInput {
  const v = JSON.parse(readFileSync(join(dir!, 'accounts', file), 'utf8')) as { boc_base64: string };
  const sa = loadShardAccount(Cell.fromBase64(v.boc_base64).beginParse());
  const st = sa.account!.storage.state;
  if (st.type !== 'active') throw new Error(`${file}: not active`);
  return {
    address: sa.account!.addr,
    code: st.state.code!,
    data: st.state.data!,
    balance: sa.account!.storage.balance.coins,
    lastTransLt: sa.lastTransactionLt,
  };
}

interface Expected {
  kind: 'transfer' | 'burn' | 'mint';
  hash: string;
  amount: string;
  queryId: string;
}

/** What the block's transactions on WALLET imply, read with plain slice reads (not our event decoders). */
function expectedFrom(block: Cell): Expected[] {
  const out: Expected[] = [];
  for (const t of listBlockTransactions(loadBlockCell(block))) {
    if (`0:${t.account.toString('hex').toUpperCase()}` !== WALLET) continue;
    const tx = loadTransaction(t.cell.beginParse());
    const m = tx.inMessage;
    if (m?.info.type !== 'internal' || m.info.bounced) continue;
    const s = m.body.beginParse();
    if (s.remainingBits < 32 + 64 + 4) continue;
    const op = s.loadUint(32);
    const queryId = s.loadUintBig(64).toString();
    const amount = s.loadCoins().toString();
    const hash = t.cell.hash().toString('base64');
    if (op === 0x0f8a7ea5) out.push({ kind: 'transfer', hash, amount, queryId });
    else if (op === 0x595f07bc) out.push({ kind: 'burn', hash, amount, queryId });
    else if (op === 0x178d4519 && m.info.src.toRawString().toUpperCase() === MASTER) {
      out.push({ kind: 'mint', hash, amount, queryId });
    }
  }
  return out;
}

describe.skipIf(!dir)('real block 71398501 through the contract decoders', () => {
  let t: TestDatabase;
  let source: FileSource;
  let env: OwnedContractsEnv;
  let block: Cell;

  beforeAll(async () => {
    t = await setupDatabase('pglite');
    await migrate(t.db);
    const v = JSON.parse(readFileSync(join(dir!, 'blocks', 'mainnet_0_8000000000000000_71398501.json'), 'utf8')) as {
      boc_base64: string;
    };
    block = Cell.fromBase64(v.boc_base64);
    source = await createFileSource({ blocks: [Buffer.from(v.boc_base64, 'base64')] });
    env = await createContractsEnv({ db: t.db });
    // The wallet and its master as the index knew them before this block.
    const wallet = accountVector('fatblock_jetton_93503d3a.json');
    const master = accountVector('fatblock_jetton_bdf3fa80.json');
    const known = new Map([wallet, master].map((a) => [a.address.toRawString(), a]));
    const before = await decodeUnitContracts(
      {
        mcSeqno: 0,
        now: 1_747_000_000,
        transactions: [],
        states: [wallet, master],
        account: async (a) => known.get(a.toRawString()) ?? null,
      },
      env,
    );
    expect(before.detected.map((d) => d.kind).sort()).toEqual(['jetton_master', 'jetton_wallet']);
    await t.db.transaction((tx) => writeContractRows(tx, before.tables));
    for (const n of source.unitSeqnos()) await indexMcBlock(n, { source, db: t.db, contracts: env });
  }, 300_000);

  afterAll(async () => {
    await env?.close();
    await source?.close();
    await t?.cleanup();
  });

  it('stores every transfer, burn and mint the wallet received, with the amounts the bodies carry', async () => {
    const expected = expectedFrom(block);
    expect(expected.length).toBeGreaterThan(0);
    const rows = async (table: string) =>
      (
        await t.db.query<{ tx_hash: string; amount: string; query_id: string; jetton_master_address: string }>(
          `SELECT tx_hash, amount::text AS amount, query_id::text AS query_id, jetton_master_address FROM ${table}
            WHERE jetton_wallet_address = $1 ORDER BY tx_lt`,
          [WALLET],
        )
      ).rows.map((r) => ({ hash: r.tx_hash, amount: r.amount, queryId: r.query_id, master: r.jetton_master_address }));
    const pick = (k: Expected['kind']) =>
      expected
        .filter((e) => e.kind === k)
        .map(({ hash, amount, queryId }) => ({ hash, amount, queryId, master: MASTER }));
    expect(await rows('jetton_transfers')).toEqual(pick('transfer'));
    expect(await rows('jetton_burns')).toEqual(pick('burn'));
    expect(await rows('jetton_mints')).toEqual(pick('mint'));
  });

  it('writes no rows for wallets the index never detected', async () => {
    for (const table of ['jetton_transfers', 'jetton_burns', 'jetton_mints']) {
      const r = await t.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ${table} WHERE jetton_wallet_address <> $1`,
        [WALLET],
      );
      expect(Number(r.rows[0]!.n), table).toBe(0);
    }
  });

  it('the wallet detected from its vector state is the one get_wallet_data describes in the vector file', async () => {
    const r = await t.db.query<{ balance: string; owner: string; jetton: string }>(
      'SELECT balance::text AS balance, owner, jetton FROM jetton_wallets WHERE address = $1',
      [WALLET],
    );
    const v = JSON.parse(readFileSync(join(dir!, 'accounts', 'fatblock_jetton_93503d3a.json'), 'utf8')) as {
      computed_get_methods: { get_wallet_data: { stack: Array<{ value?: string; as_address?: string }> } };
    };
    const [balance, owner, jetton] = v.computed_get_methods.get_wallet_data.stack;
    expect(r.rows[0]).toEqual({
      balance: balance!.value,
      owner: Address.parseRaw(owner!.as_address!).toRawString().toUpperCase(),
      jetton: Address.parseRaw(jetton!.as_address!).toRawString().toUpperCase(),
    });
  });
});
