// The running devnet node as ton-lite-client sees it over a real socket: the chain advances, lookups find the
// blocks the block files describe, shards and transaction lists agree with the files (decoded by src/ton), account
// balances are what genesis plus the account's own transactions (read with @ton/core) give, and a wallet transfer
// signed with @ton/ton moves funds through the shards' queues. Bad externals are refused with the node's reason.
import { createHash, randomBytes } from 'node:crypto';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed, mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVNET_WALLET_BALANCE, shardLayout } from '../../src/devnet/genesis/index.ts';
import { listShards } from '../../src/ton/index.ts';
import {
  type BlockIdLike,
  blockTxKeys,
  type Devnet,
  fetchBlock,
  MC_SHARD_TEXT,
  mcBlockId,
  stackInt,
  startDevnet,
  tlcId,
  transactionChain,
  verifiedAccountState,
} from '../helpers/devnet-node.ts';
import { until } from '../helpers/until.ts';

let d: Devnet;

beforeAll(async () => {
  d = await startDevnet({ seed: 'node-lite-client', blockIntervalMs: 60 });
  // The layout is in place from masterchain block 3; the genesis wallets deploy in the first blocks.
  await d.node.waitMasterchainSeqno(6);
});

afterAll(async () => {
  await d?.close();
});

const walletOf = (version: string) => {
  const w = d.wallets.find((x) => x.version === version);
  if (!w) throw new Error(`no ${version} wallet`);
  return w;
};

async function head(): Promise<BlockIdLike> {
  return (await d.lite.client.getMasterchainInfo()).last as BlockIdLike;
}

/** Balance from genesis through each transaction (@ton/core's reading of the cells): in - out - fees. */
function replayBalance(txs: Awaited<ReturnType<typeof transactionChain>>): bigint {
  let b = DEVNET_WALLET_BALANCE;
  for (const { tx } of [...txs].reverse()) {
    const inInfo = tx.inMessage?.info;
    if (inInfo?.type === 'internal') b += inInfo.value.coins;
    for (const m of tx.outMessages.values()) {
      if (m.info.type === 'internal') b -= m.info.value.coins + m.info.forwardFee + m.info.ihrFee;
    }
    b -= tx.totalFees.coins;
  }
  return b;
}

describe('devnet node through ton-lite-client', () => {
  it('advances the masterchain', async () => {
    const a = await head();
    await d.node.waitMasterchainSeqno(a.seqno + 2);
    const b = await head();
    expect(b.seqno).toBeGreaterThanOrEqual(a.seqno + 2);
  });

  it('lookupBlock by seqno, lt and utime finds the blocks the block files describe', async () => {
    const top = (await head()).seqno;
    const infos = [];
    for (let n = 1; n <= top; n++) {
      const id = await mcBlockId(d.lite, n);
      const { block } = await fetchBlock(d.lite, id);
      infos.push({ id, startLt: block.info.startLt, endLt: block.info.endLt, genUtime: block.info.genUtime });
    }
    for (const x of infos) {
      const byLt = await d.lite.client.lookupBlockByLt({ workchain: -1, shard: MC_SHARD_TEXT, lt: x.startLt + 1n });
      expect(byLt.id.seqno).toBe(x.id.seqno);
      expect(byLt.id.rootHash.equals(x.id.rootHash)).toBe(true);
      // The node's rule: the first block whose gen_utime is at or after the time.
      const want = infos.find((y) => y.genUtime >= x.genUtime);
      const byUtime = await d.lite.client.lookupBlockByUtime({
        workchain: -1,
        shard: MC_SHARD_TEXT,
        utime: x.genUtime,
      });
      expect(byUtime.id.seqno).toBe(want?.id.seqno);
    }
    // A shard chain: its blocks by seqno and by lt, as the newest masterchain block's shard_hashes lists them.
    const { block: mcBlock } = await fetchBlock(d.lite, infos.at(-1)!.id);
    const shard = listShards(mcBlock.extra.custom!.shardHashes)[0]!;
    const sid = BigInt.asIntN(64, shard.shard).toString();
    const byId = await d.lite.client.lookupBlockByID({ workchain: 0, shard: sid, seqno: shard.descr.seqNo });
    expect(byId.id.rootHash.equals(shard.descr.rootHash)).toBe(true);
    expect(byId.id.fileHash.equals(shard.descr.fileHash)).toBe(true);
    const byLt = await d.lite.client.lookupBlockByLt({ workchain: 0, shard: sid, lt: shard.descr.endLt });
    expect(byLt.id.seqno).toBe(shard.descr.seqNo);
  });

  it('getAllShardsInfo lists the two shards of the layout, as the masterchain block names them', async () => {
    const last = await head();
    const r = await d.lite.client.getAllShardsInfo(tlcId(last));
    const wanted = shardLayout(2).map((s) => BigInt.asIntN(64, s).toString());
    expect(Object.keys(r.shards[0] ?? {}).sort()).toEqual([...wanted].sort());
    const { block } = await fetchBlock(d.lite, last);
    for (const s of listShards(block.extra.custom!.shardHashes)) {
      expect(r.shards[s.workchain]?.[BigInt.asIntN(64, s.shard).toString()]).toBe(s.descr.seqNo);
    }
  });

  it('getAccountState: balances and last transactions follow from genesis and the accounts own transactions', async () => {
    const last = await head();
    for (const w of d.wallets) {
      const addr = Address.parse(w.raw);
      const st = await verifiedAccountState(d.lite, addr, last);
      expect(st.exists).toBe(true);
      const txs = await transactionChain(d.lite, addr, st.lastTx!);
      expect(txs.length).toBeGreaterThan(0);
      expect(st.balance).toBe(replayBalance(txs));
      // The last transaction is in the block getTransactions names for it.
      const { block } = await fetchBlock(d.lite, txs[0]!.block);
      expect(blockTxKeys(block)).toContain(
        `${addr.hash.toString('hex')}:${txs[0]!.tx.lt}:${txs[0]!.cell.hash().toString('hex')}`,
      );
    }
  });

  it('listBlockTransactions pages through exactly the transactions of the block file', async () => {
    const addr = Address.parse(walletOf('v4r2').raw);
    const st = await verifiedAccountState(d.lite, addr, await head());
    const [first] = (await transactionChain(d.lite, addr, st.lastTx!)).slice(-1);
    const blockId = first!.block;
    const { block } = await fetchBlock(d.lite, blockId);
    const fromFile = blockTxKeys(block).sort();
    const listed: string[] = [];
    let after: { kind: 'liteServer.transactionId3'; account: Buffer; lt: string } | null = null;
    for (let page = 0; page < 100; page++) {
      const r = await d.lite.client.listBlockTransactions(tlcId(blockId), {
        mode: 7 | (after ? 128 : 0),
        count: 1,
        after,
      });
      for (const t of r.ids) listed.push(`${t.account!.toString('hex')}:${t.lt}:${t.hash!.toString('hex')}`);
      if (!r.incomplete) break;
      const lastId = r.ids.at(-1)!;
      after = { kind: 'liteServer.transactionId3', account: lastId.account!, lt: lastId.lt! };
    }
    expect(listed.sort()).toEqual(fromFile);
    expect(listed.length).toBeGreaterThan(0);
  });

  it('runMethod seqno on a funded wallet counts its accepted external messages', async () => {
    const last = await head();
    for (const w of d.wallets) {
      const addr = Address.parse(w.raw);
      const st = await verifiedAccountState(d.lite, addr, last);
      const txs = await transactionChain(d.lite, addr, st.lastTx!);
      const externals = txs.filter((t) => t.tx.inMessage?.info.type === 'external-in').length;
      const r = await d.lite.client.runMethod(addr, 'seqno', Buffer.alloc(0), tlcId(last));
      expect(r.exitCode).toBe(0);
      expect(stackInt(r.result)).toBe(BigInt(externals));
    }
  });

  it('a signed v4 transfer lands in the wallet, then in the recipients later blocks of their shards', async () => {
    const entry = walletOf('v4r2');
    const keys = await mnemonicToPrivateKey(entry.mnemonic);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    expect(wallet.address.toRawString()).toBe(entry.raw);
    const walletBit = (wallet.address.hash[0] as number) >> 7;
    const recipient = (bit: number) => {
      const h = randomBytes(32);
      h[0] = ((h[0] as number) & 0x7f) | (bit << 7);
      return new Address(0, h);
    };
    const same = recipient(walletBit);
    const other = recipient(1 - walletBit);
    const before = await head();
    const prior = await verifiedAccountState(d.lite, wallet.address, before);
    const seqno = stackInt(
      (await d.lite.client.runMethod(wallet.address, 'seqno', Buffer.alloc(0), tlcId(before))).result,
    );
    const body = wallet.createTransfer({
      seqno: Number(seqno),
      secretKey: keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [
        internal({ to: same, value: toNano('1.5'), bounce: false }),
        internal({ to: other, value: toNano('2.25'), bounce: false }),
      ],
    });
    const msg = beginCell()
      .store(storeMessage(external({ to: wallet.address, body })))
      .endCell();
    expect((await d.lite.client.sendMessage(msg.toBoc())).status).toBe(1);

    const landed = await until('the wallet transaction', async () => {
      const st = await verifiedAccountState(d.lite, wallet.address, await head());
      return st.lastTx && st.lastTx.lt !== prior.lastTx?.lt ? st : null;
    });
    const [walletTx] = await transactionChain(d.lite, wallet.address, landed.lastTx!);
    expect(walletTx!.tx.inMessage?.info.type).toBe('external-in');
    const out = [...walletTx!.tx.outMessages.values()];
    expect(out).toHaveLength(2);
    const walletBlock = (await fetchBlock(d.lite, walletTx!.block)).block;

    for (const [to, value] of [
      [same, toNano('1.5')],
      [other, toNano('2.25')],
    ] as const) {
      const st = await until(`funds at ${to.toRawString()}`, async () => {
        const s = await verifiedAccountState(d.lite, to, await head());
        return s.exists ? s : null;
      });
      expect(st.balance).toBe(value);
      const [rx] = await transactionChain(d.lite, to, st.lastTx!);
      const sent = out.find((m) => m.info.dest?.toString() === to.toString());
      expect(sent).toBeTruthy();
      expect(rx!.tx.inMessage && beginCell().store(storeMessage(rx!.tx.inMessage)).endCell().hash()).toEqual(
        beginCell().store(storeMessage(sent!)).endCell().hash(),
      );
      const rxBlock = (await fetchBlock(d.lite, rx!.block)).block;
      if (to === same) {
        // Same shard: never the block that created the message.
        expect(rx!.block.shard.toString()).toBe(walletTx!.block.shard.toString());
        expect(rx!.block.seqno).toBeGreaterThan(walletTx!.block.seqno);
      } else {
        // Other shard: a block that refers to a masterchain block registering the sender's block.
        expect(rxBlock.info.masterRef!.master.seqNo).toBeGreaterThan(walletBlock.info.masterRef!.master.seqNo);
      }
      expect(rx!.tx.lt).toBeGreaterThan(walletBlock.info.endLt);
    }
  });

  it('refuses an external with a bad signature, with the reason', async () => {
    const entry = walletOf('v4r2');
    const keys = await mnemonicToPrivateKey(entry.mnemonic);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const wrong = keyPairFromSeed(createHash('sha256').update('not the wallet key').digest());
    const last = await head();
    const seqno = stackInt(
      (await d.lite.client.runMethod(wallet.address, 'seqno', Buffer.alloc(0), tlcId(last))).result,
    );
    const body = wallet.createTransfer({
      seqno: Number(seqno),
      secretKey: wrong.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: wallet.address, value: toNano('1'), bounce: false })],
    });
    const msg = beginCell()
      .store(storeMessage(external({ to: wallet.address, body })))
      .endCell();
    const err = await d.lite.client.sendMessage(msg.toBoc()).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^cannot apply external message to current state : External message was not accepted/);
    expect(err?.message).toMatch(/exitcode=35/);
    // Not a BoC at all, and an internal message: refused too, with what is wrong.
    await expect(d.lite.client.sendMessage(Buffer.from('not a boc'))).rejects.toThrow(/cannot deserialize/);
    const int = beginCell()
      .store(
        storeMessage({
          info: {
            type: 'internal',
            ihrDisabled: true,
            bounce: false,
            bounced: false,
            src: wallet.address,
            dest: wallet.address,
            value: { coins: 1n },
            ihrFee: 0n,
            forwardFee: 0n,
            createdLt: 0n,
            createdAt: 0,
          },
          body: beginCell().endCell(),
        }),
      )
      .endCell();
    await expect(d.lite.client.sendMessage(int.toBoc())).rejects.toThrow(/ext_in_msg_info/);
  });
});
