#!/usr/bin/env python3
"""pytoniq oracle: a test tool (not product code) that judges the devnet liteserver with pytoniq's proof checks.

Usage: oracle.py --config global.config.json --wallets wallets.json [--min-blocks 100] [--max-blocks N]
       [--trust-levels 0,1,2] [--no-transfer]

For each trust level it connects a pytoniq LiteClient (0: every answer proven back to the devnet's init block
through getBlockProof chains and masterchain signatures; 1: Merkle proofs against block hashes; 2: pytoniq's
lightest mode, which still checks account proofs), walks every masterchain block from 1 to the last one and every
shard block they list, reads the accounts those blocks touched, runs get-methods, reads the config and proof
chains; the trust-0 client then sends a wallet transfer and waits for it to land. Prints one JSON report on stdout,
{"checked": {method: count}, "by_trust": {...}, "failures": [...], ...}, and exits 1 if anything failed.

pytoniq runs unchanged: its trust-0 client starts at the global config's init block, the devnet's first key block
(masterchain block 1), as it starts at a real network's key block; a forward link's config proof is then a key
block's, which is what pytoniq reads.
"""

import argparse
import asyncio
import base64
import hashlib
import json
import logging
import os
import sys
import tempfile
import time
import traceback
from collections import Counter

from pytoniq import LiteClient, WalletV4R2
from pytoniq.liteclient.client import RunGetMethodError
from pytoniq_core import Address, Cell
from pytoniq_core.tl.block import BlockIdExt

MC_SHARD = -9223372036854775808
PARALLEL = 8


class OracleError(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise OracleError(what)


def shard_contains(outer, inner):
    """Whether shard prefix `outer` (signed 64-bit id) contains shard `inner`: equal, or an ancestor of it."""
    a, c = outer % (1 << 64), inner % (1 << 64)
    la, lc = a & -a, c & -c
    mask = ~(2 * la - 1) % (1 << 64)
    return la >= lc and (a & mask) == (c & mask)


class Report:
    def __init__(self):
        self.checked = Counter()
        self.by_trust = {}
        self.failures = []
        self.facts = {}

    def ok(self, trust, name, n=1):
        self.checked[name] += n
        self.by_trust.setdefault(str(trust), Counter())[name] += n

    def fail(self, trust, name, err):
        detail = f'{type(err).__name__}: {err}'
        tb = traceback.format_exception(type(err), err, err.__traceback__)
        self.failures.append({'trust': trust, 'check': name, 'error': detail, 'trace': ''.join(tb[-4:])[-1500:]})


class Run:
    """One trust level's walk."""

    def __init__(self, rep, trust, client, cfg):
        self.rep = rep
        self.trust = trust
        self.c = client
        self.cfg = cfg
        self.sem = asyncio.Semaphore(PARALLEL)

    async def check(self, name, fn, *args, **kw):
        """Runs fn; counts it under name when it returns, records a failure when it raises. Returns its result."""
        async with self.sem:
            try:
                res = await fn(*args, **kw)
            except Exception as e:  # noqa: BLE001 - every error is a finding
                self.rep.fail(self.trust, name, e)
                return None
        self.rep.ok(self.trust, name)
        return res

    async def gather(self, coros):
        return await asyncio.gather(*coros)

    # ---- checks -------------------------------------------------------------------------------------------

    async def masterchain_info(self):
        info = await self.c.get_masterchain_info()
        zs = self.cfg['validator']['zero_state']
        init = info['init']
        expect(init['workchain'] == -1, 'init is not a masterchain zero state')
        expect(bytes.fromhex(init['root_hash']) == base64.b64decode(zs['root_hash']), 'init root hash != zero_state')
        expect(bytes.fromhex(init['file_hash']) == base64.b64decode(zs['file_hash']), 'init file hash != zero_state')
        return BlockIdExt.from_dict(info['last'])

    async def lookup_mc(self, seqno):
        blk_id, blk = await self.c.lookup_block(-1, MC_SHARD, seqno)
        expect(blk_id.seqno == seqno and blk_id.workchain == -1, f'lookupBlock(-1, {seqno}) returned {blk_id}')
        expect(blk.info.seqno == seqno and not blk.info.not_master, 'lookupBlock header is not that mc block')
        return blk_id

    async def lookup_same(self, blk_id, by):
        shard = blk_id.shard
        if by == 'seqno':
            got, blk = await self.c.lookup_block(blk_id.workchain, shard, blk_id.seqno)
        elif by == 'lt':
            hdr = await self.c.raw_get_block_header(blk_id)
            got, blk = await self.c.lookup_block(blk_id.workchain, shard, lt=hdr.info.start_lt)
        else:
            hdr = await self.c.raw_get_block_header(blk_id)
            got, blk = await self.c.lookup_block(blk_id.workchain, shard, utime=hdr.info.gen_utime)
            # several blocks may share a second: the answer must be a block of that second at or before blk_id
            expect(blk.info.gen_utime == hdr.info.gen_utime, f'lookupBlock by utime: utime {blk.info.gen_utime}')
            # at a split or merge second the answer may be the ancestor shard's block of that second
            expect(got.seqno <= blk_id.seqno and shard_contains(got.shard, shard), f'lookupBlock by utime returned {got}')
            return got
        expect(got == blk_id, f'lookupBlock by {by} for {blk_id} returned {got}')
        return got

    async def header(self, blk_id):
        blk = await self.c.raw_get_block_header(blk_id)
        expect(blk.info.seqno == blk_id.seqno, 'header seqno differs')
        expect(blk.info.shard.workchain_id == blk_id.workchain, 'header workchain differs')
        return blk

    async def full_block(self, blk_id):
        blk = await self.c.raw_get_block(blk_id)
        expect(blk.info.seqno == blk_id.seqno, 'block seqno differs')
        return blk

    async def file_hash(self, blk_id):
        """As the C++ lite-client does: sha256 of getBlock's data must be the id's file hash."""
        res = await self.c.liteserver_request('getBlock', {'id': blk_id.to_dict()})
        data = res['data']
        expect(hashlib.sha256(data).digest() == blk_id.file_hash, f'sha256(getBlock data) != file_hash of {blk_id}')
        expect(Cell.one_from_boc(data).get_hash(0) == blk_id.root_hash, 'getBlock root hash differs')

    async def shards(self, mc_id):
        shards = await self.c.get_all_shards_info(mc_id)
        expect(len(shards) >= 1, 'no shards')
        for s in shards:
            expect(s.workchain == 0, f'unexpected workchain {s.workchain}')
        return shards

    async def block_txs_ext(self, blk_id):
        return await self.c.raw_get_block_transactions_ext(blk_id)

    async def block_txs(self, blk_id, ext):
        ids = await self.c.raw_get_block_transactions(blk_id)
        got = sorted((t['account'].hash_part.hex(), t['lt'], t['hash']) for t in ids)
        want = sorted((t.account_addr_hex, t.lt, t.cell.get_hash(0)) for t in ext)
        expect(got == want, f'listBlockTransactions and listBlockTransactionsExt differ in {blk_id}')
        return ids

    async def one_tx(self, blk_id, tx):
        addr = Address((blk_id.workchain, tx.account_addr))
        got = await self.c.get_one_transaction(addr, tx.lt, blk_id)
        expect(got is not None and got.cell.get_hash(0) == tx.cell.get_hash(0), 'getOneTransaction differs')

    async def shard_block_proof(self, blk_id):
        await self.c.get_shard_block_proof(blk_id, prove_mc=self.trust == 0)

    async def account(self, addr, mc_id):
        acc, shard_acc = await self.c.raw_get_account_state(addr, mc_id)
        return acc, shard_acc

    async def account_simple(self, addr):
        return await self.c.get_account_state(addr)

    async def transactions(self, addr, shard_acc):
        txs = await self.c.get_transactions(
            addr, 32, from_lt=shard_acc.last_trans_lt, from_hash=shard_acc.last_trans_hash
        )
        expect(len(txs) > 0, 'getTransactions returned nothing for an account with a last transaction')
        expect(txs[0].lt == shard_acc.last_trans_lt, 'first transaction lt != last_trans_lt')
        for a, b in zip(txs, txs[1:]):
            expect(a.prev_trans_lt == b.lt, 'transaction lt chain broken')
        return txs

    async def get_method(self, addr, method, mc_id):
        return await self.c.run_get_method(addr, method, [], mc_id)

    async def config_all(self, mc_id):
        cfg = await self.c.get_config_all(mc_id)
        for p in (0, 1, 12, 15, 20, 21, 28, 34):
            expect(p in cfg, f'config param {p} missing')
        return cfg

    async def config_params(self, mc_id):
        cfg = await self.c.get_config_params([28, 34], mc_id)
        expect(28 in cfg and 34 in cfg, 'getConfigParams lacks 28/34')

    async def proof_forward(self, init_id, target):
        """A full chain init block -> target (forward links with signatures)."""
        last = init_id
        hops = 0
        while last != target:
            _, last, _, _ = await self.c.raw_get_mc_block_proof(last, target)
            hops += 1
            expect(hops < 64, 'proof chain does not converge')

    async def proof_backward(self, known, target):
        complete, last, _, _ = await self.c.raw_get_mc_block_proof(known, target)
        hops = 1
        while not complete:
            complete, last, _, _ = await self.c.raw_get_mc_block_proof(last, target)
            hops += 1
            expect(hops < 64, 'backward proof chain does not converge')
        expect(last == target, 'backward chain ends elsewhere')

    # ---- the walk ---------------------------------------------------------------------------------------------

    async def walk(self, min_blocks, max_blocks, wallets):
        c = self.c
        last = await self.check('get_masterchain_info', self.masterchain_info)
        if last is None:
            return
        await self.check('get_masterchain_info_ext', c.get_masterchain_info_ext)
        await self.check('get_time', c.get_time)
        await self.check('get_version', c.get_version)
        seqnos = list(range(1, min(last.seqno, max_blocks) + 1))
        mc_ids = await self.gather(self.check('lookup_block', self.lookup_mc, s) for s in seqnos)
        mc_ids = [m for m in mc_ids if m is not None]
        self.rep.facts[f'mc_blocks_t{self.trust}'] = len(mc_ids)

        async def per_mc(mc_id):
            await self.check('get_block_header', self.header, mc_id)
            await self.check('raw_get_block', self.full_block, mc_id)
            await self.check('block_file_hash', self.file_hash, mc_id)
            txs = await self.check('raw_get_block_transactions_ext', self.block_txs_ext, mc_id) or []
            await self.check('raw_get_block_transactions', self.block_txs, mc_id, txs)
            shards = await self.check('get_all_shards_info', self.shards, mc_id) or []
            return mc_id, txs, shards

        per = await self.gather(per_mc(m) for m in mc_ids)
        shard_blocks = {}
        shard_count = Counter()
        mc_txs = []
        for mc_id, txs, shards in per:
            mc_txs.extend((mc_id, t) for t in txs)
            shard_count[len(shards)] += 1
            for s in shards:
                if s.seqno > 0:
                    shard_blocks[(s.shard, s.seqno)] = s
        self.rep.facts[f'mc_blocks_with_2_shards_t{self.trust}'] = two = shard_count[2]
        if two < min_blocks or per[-1][2] is None or len(per[-1][2]) != 2:
            self.rep.fail(self.trust, 'two_shards', OracleError(f'shards listed per mc block: {dict(shard_count)}'))

        async def per_shard(s):
            await self.check('get_block_header', self.header, s)
            await self.check('raw_get_block', self.full_block, s)
            await self.check('block_file_hash', self.file_hash, s)
            await self.check('lookup_block', self.lookup_same, s, 'seqno')
            txs = await self.check('raw_get_block_transactions_ext', self.block_txs_ext, s) or []
            await self.check('raw_get_block_transactions', self.block_txs, s, txs)
            return s, txs

        shard_res = await self.gather(per_shard(s) for s in sorted(shard_blocks.values(), key=lambda b: b.seqno))
        tx_per_shard = Counter()
        all_txs = list(mc_txs)
        for s, txs in shard_res:
            tx_per_shard[s.shard] += len(txs)
            all_txs.extend((s, t) for t in txs)
        self.rep.facts[f'shard_blocks_t{self.trust}'] = len(shard_blocks)
        self.rep.facts[f'transactions_per_shard_t{self.trust}'] = {str(k): v for k, v in tx_per_shard.items()}
        self.rep.facts[f'mc_transactions_t{self.trust}'] = len(mc_txs)
        if len([k for k, v in tx_per_shard.items() if v > 0]) < 2:
            self.rep.fail(self.trust, 'activity', OracleError(f'transactions per shard: {dict(tx_per_shard)}'))

        # lookups by lt / utime and shard block proofs on a sample of blocks of each chain
        sample_mc = mc_ids[:: max(1, len(mc_ids) // 12)]
        sample_sh = sorted(shard_blocks.values(), key=lambda b: (b.shard, b.seqno))[:: max(1, len(shard_blocks) // 16)]
        await self.gather(self.check('lookup_block', self.lookup_same, b, 'lt') for b in sample_mc + sample_sh)
        await self.gather(self.check('lookup_block', self.lookup_same, b, 'utime') for b in sample_mc + sample_sh)
        await self.gather(self.check('get_shard_block_proof', self.shard_block_proof, b) for b in sample_sh)

        # one transaction of every block that has any (with its Merkle proof)
        seen_blocks = {}
        for blk, t in all_txs:
            seen_blocks.setdefault(blk, t)
        await self.gather(self.check('get_one_transaction', self.one_tx, b, t) for b, t in seen_blocks.items())

        # accounts the walk met: state with proofs at the last and at a middle masterchain block, their
        # transaction chains, get-methods
        accounts = {}
        for blk, t in all_txs:
            accounts.setdefault(f'{blk.workchain}:{t.account_addr_hex}', blk.workchain)
        for w in wallets:
            accounts.setdefault(w['raw'], 0)
        mid = mc_ids[len(mc_ids) // 2]
        last_id = mc_ids[-1]
        self.rep.facts[f'accounts_t{self.trust}'] = len(accounts)
        wallet_raws = {w['raw'] for w in wallets}
        jettons = Counter()

        async def per_account(raw):
            addr = Address(raw)
            res = await self.check('raw_get_account_state', self.account, addr, last_id)
            await self.check('raw_get_account_state', self.account, addr, mid)
            await self.check('get_account_state', self.account_simple, addr)
            if not res:
                return
            acc, shard_acc = res
            if acc is None:
                return
            if shard_acc.last_trans_lt:
                await self.check('get_transactions', self.transactions, addr, shard_acc)
            active = acc.storage.state.type_ == 'account_active'
            if not active:
                return
            if raw in wallet_raws:
                st = await self.check('run_get_method', self.get_method, addr, 'seqno', last_id)
                if st is not None and not (isinstance(st[0], int) and st[0] > 0):
                    self.rep.fail(self.trust, 'run_get_method', OracleError(f'wallet {raw} seqno {st}'))
                return
            # get_jetton_data / get_wallet_data / get_collection_data / get_nft_data on the other active accounts;
            # exit code 11 (no such method) is expected from accounts of other kinds, any other error is a finding
            for method in ('get_jetton_data', 'get_wallet_data', 'get_collection_data', 'get_nft_data'):
                try:
                    async with self.sem:
                        st = await self.c.run_get_method(addr, method, [], last_id)
                except RunGetMethodError as e:
                    if e.exit_code == 11:
                        continue
                    self.rep.fail(self.trust, 'run_get_method', e)
                    continue
                except Exception as e:  # noqa: BLE001
                    self.rep.fail(self.trust, 'run_get_method', e)
                    continue
                self.rep.ok(self.trust, 'run_get_method')
                jettons[method] += 1
                if method == 'get_jetton_data' and len(st) != 5:
                    self.rep.fail(self.trust, 'run_get_method', OracleError(f'get_jetton_data stack {st}'))

        await self.gather(per_account(a) for a in sorted(accounts))
        self.rep.facts[f'get_methods_t{self.trust}'] = dict(jettons)
        if jettons['get_jetton_data'] == 0:
            self.rep.fail(self.trust, 'run_get_method', OracleError('no jetton master answered get_jetton_data'))

        # config (trusted last block, proven middle block), proof chains
        await self.check('get_config_all', self.config_all, last_id)
        await self.check('get_config_all', self.config_all, mid)
        await self.check('get_config_params', self.config_params, mid)
        init_id = BlockIdExt.from_dict(
            {
                k: (base64.b64decode(v).hex() if k.endswith('_hash') else v)
                for k, v in self.cfg['validator']['init_block'].items()
                if k != '@type'
            }
        )
        targets = sorted({mc_ids[0], mid, last_id, *mc_ids[:: max(1, len(mc_ids) // 6)]}, key=lambda b: b.seqno)
        await self.gather(self.check('get_block_proof_forward', self.proof_forward, init_id, t) for t in targets)
        back = [t for t in targets if t.seqno < last_id.seqno]
        await self.gather(self.check('get_block_proof_backward', self.proof_backward, last_id, t) for t in back)


async def transfer(rep, trust, client, wallets, timeout_s):
    """A WalletV4R2 transfer from a genesis wallet's mnemonic to another genesis wallet, through pytoniq."""
    src = next(w for w in wallets if w['version'] == 'v4r2')
    dst = next(w for w in wallets if w['raw'] != src['raw'])
    wallet = await WalletV4R2.from_mnemonic(provider=client, mnemonics=src['mnemonic'])
    expect(wallet.address == Address(src['raw']), f'pytoniq derives {wallet.address.to_str(False)}, not {src["raw"]}')
    await client.update_last_blocks()
    seqno0 = await wallet.get_seqno()
    dst_addr = Address(dst['raw'])
    _, before = await client.raw_get_account_state(dst_addr)
    comment = f'pytoniq oracle {os.getpid()} {time.time():.3f}'
    amount = 12_345_678
    await wallet.transfer(destination=dst_addr, amount=amount, body=comment)
    rep.ok(trust, 'send_message')
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        await asyncio.sleep(0.5)
        await client.update_last_blocks()
        _, now = await client.raw_get_account_state(dst_addr)
        if now is None or (before is not None and now.last_trans_lt == before.last_trans_lt):
            continue
        txs = await client.get_transactions(dst_addr, 16, from_lt=now.last_trans_lt, from_hash=now.last_trans_hash)
        for t in txs:
            if before is not None and t.lt <= before.last_trans_lt:
                break
            m = t.in_msg
            if m is None or not m.is_internal or m.info.src != wallet.address:
                continue
            body = m.body.begin_parse()
            if body.remaining_bits >= 32 and body.load_uint(32) == 0 and body.load_snake_string() == comment:
                expect(m.info.value_coins == amount, f'landed with value {m.info.value_coins}, sent {amount}')
                await wallet.update()
                seqno1 = await wallet.get_seqno()
                expect(seqno1 == seqno0 + 1, f'wallet seqno {seqno0} -> {seqno1}')
                rep.facts['transfer'] = {'from': src['raw'], 'to': dst['raw'], 'lt': t.lt, 'seqno': seqno1}
                return
    raise OracleError(f'transfer did not land within {timeout_s} s')


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--config', required=True)
    p.add_argument('--wallets', required=True)
    p.add_argument('--min-blocks', type=int, default=100)
    p.add_argument('--max-blocks', type=int, default=1_000_000, help='walk masterchain blocks 1..N at most')
    p.add_argument('--trust-levels', default='0,1,2')
    p.add_argument('--transfer-timeout', type=float, default=60)
    p.add_argument('--no-transfer', action='store_true')
    return p.parse_args()


async def main():
    args = parse_args()
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)
    # pytoniq's trust-0 sync keeps a .blockstore folder in the working directory: keep it out of the repo
    os.chdir(tempfile.mkdtemp(prefix='pytoniq-oracle-'))
    with open(args.config) as f:
        cfg = json.load(f)
    with open(args.wallets) as f:
        wallets = json.load(f)
    rep = Report()
    started = time.time()
    for trust in [int(t) for t in args.trust_levels.split(',') if t != '']:
        t0 = time.time()
        client = LiteClient.from_config(cfg, trust_level=trust, timeout=30)
        try:
            await client.connect()
        except Exception as e:  # noqa: BLE001
            rep.fail(trust, 'connect', e)
            continue
        rep.ok(trust, 'connect')
        # pytoniq's background updater re-proves every new masterchain block (at trust 0 a proof chain from the
        # init block per block, 10 a second on the test devnet); the walk names its blocks itself, and the
        # transfer refreshes the last block explicitly (update_last_blocks, with the same proofs)
        if client.updater is not None:
            client.updater.cancel()
        try:
            await Run(rep, trust, client, cfg).walk(args.min_blocks, args.max_blocks, wallets)
            if trust == 0 and not args.no_transfer:
                try:
                    await transfer(rep, trust, client, wallets, args.transfer_timeout)
                    rep.ok(trust, 'wallet_transfer')
                except Exception as e:  # noqa: BLE001
                    rep.fail(trust, 'wallet_transfer', e)
        finally:
            await client.close()
        rep.facts[f'seconds_t{trust}'] = round(time.time() - t0, 1)
    rep.facts['init_block_seqno'] = cfg['validator']['init_block']['seqno']
    rep.facts['seconds'] = round(time.time() - started, 1)
    out = {
        'checked': dict(sorted(rep.checked.items())),
        'by_trust': {k: dict(sorted(v.items())) for k, v in rep.by_trust.items()},
        'facts': rep.facts,
        'failures': rep.failures,
        'versions': versions(),
    }
    print(json.dumps(out, indent=1, default=str))
    return 1 if rep.failures else 0


def versions():
    from importlib.metadata import version

    return {p: version(p) for p in ('pytoniq', 'pytoniq-core')}


if __name__ == '__main__':
    sys.exit(asyncio.run(main()))
