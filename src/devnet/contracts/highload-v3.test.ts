// Highload wallet v3 (tonweb's code, 11acad79…) on @ton/sandbox, against contracts.md §8.1-8.2: the getters after
// deployment, a signed external that sends one message (sent with send_mode | 2), query-id replay protection and
// the other refusals by exit code.

import { type Address, beginCell, external, internal, type MessageRelaxed, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { Blockchain, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  HIGHLOAD_V3_ERROR,
  type HighloadQueryId,
  highloadQueryIdAt,
  highloadQueryIdValue,
  highloadV3Address,
  highloadV3ExternalBody,
  highloadV3StateInit,
  processedArgs,
  readHighloadInt,
  readHighloadPublicKey,
  readProcessed,
} from './highload-v3.ts';
import { textComment } from './payload.ts';
import { matches, runGetter, stackTypes } from './sandbox.test-util.ts';
import { parseTextComment } from './tep-parsers.test-util.ts';

const T0 = 1_800_000_000;
const TIMEOUT = 3600;
const SUBWALLET = 0x10ad;
const key = keyPairFromSeed(Buffer.alloc(32, 0x4c));

interface Setup {
  chain: Blockchain;
  funder: SandboxContract<TreasuryContract>;
  bob: SandboxContract<TreasuryContract>;
  wallet: Address;
}

async function setup(): Promise<Setup> {
  const chain = await Blockchain.create();
  chain.now = T0;
  const funder = await chain.treasury('highload-funder');
  const bob = await chain.treasury('bob');
  const init = highloadV3StateInit({ publicKey: key.publicKey, subwalletId: SUBWALLET, timeout: TIMEOUT });
  const wallet = highloadV3Address(init);
  await funder.send({ to: wallet, value: toNano('5'), init, bounce: false });
  return { chain, funder, bob, wallet };
}

function send(
  s: Setup,
  queryId: HighloadQueryId,
  message: MessageRelaxed,
  o: { createdAt?: number; timeout?: number; subwalletId?: number; secretKey?: Buffer } = {},
) {
  const body = highloadV3ExternalBody({
    subwalletId: o.subwalletId ?? SUBWALLET,
    message,
    sendMode: 1,
    queryId,
    createdAt: o.createdAt ?? T0 - 5,
    timeout: o.timeout ?? TIMEOUT,
    secretKey: o.secretKey ?? key.secretKey,
  });
  return s.chain.sendMessage(
    beginCell()
      .store(storeMessage(external({ to: s.wallet, body })))
      .endCell(),
  );
}

describe('highload wallet v3 (sandbox)', () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup();
  });

  it('getters: get_public_key, get_subwallet_id, get_timeout, get_last_clean_time (one int each)', async () => {
    const pk = await runGetter(s.chain, s.wallet, 'get_public_key');
    expect(stackTypes(pk)).toEqual(['int']);
    expect(readHighloadPublicKey(pk)).toEqual(key.publicKey);
    expect(await runGetter(s.chain, s.wallet, 'get_subwallet_id')).toEqual([{ type: 'int', value: 0x10adn }]);
    expect(await runGetter(s.chain, s.wallet, 'get_timeout')).toEqual([{ type: 'int', value: 3600n }]);
    expect(readHighloadInt(await runGetter(s.chain, s.wallet, 'get_last_clean_time'))).toBe(0);
  });

  it('sends one message from a signed external and remembers the query id', async () => {
    const q = highloadQueryIdAt(1500n); // shift 1, bit 477
    expect(q).toEqual({ shift: 1n, bitNumber: 477n });
    expect(highloadQueryIdValue(q)).toBe(1024n + 477n);
    const before = readProcessed(await runGetter(s.chain, s.wallet, 'processed?', processedArgs(q)));
    expect(before).toBe(false);

    const r = await send(s, q, internal({ to: s.bob.address, value: toNano('1.5'), body: textComment('hl #1') }));
    const arrived = r.transactions.filter((t) => matches(t, { from: s.wallet, to: s.bob.address }));
    expect(arrived).toHaveLength(1);
    const m = arrived[0]!.inMessage!;
    expect(m.info.type === 'internal' && m.info.value.coins).toBe(toNano('1.5'));
    expect(parseTextComment(m.body)).toBe('hl #1');
    expect(await runGetter(s.chain, s.wallet, 'processed?', processedArgs(q))).toEqual([{ type: 'int', value: -1n }]);
    // the neighbour bit is still free; the contract rotated its generations on this first external
    expect(
      readProcessed(await runGetter(s.chain, s.wallet, 'processed?', processedArgs(highloadQueryIdAt(1501n)))),
    ).toBe(false);
    expect(readHighloadInt(await runGetter(s.chain, s.wallet, 'get_last_clean_time'))).toBe(T0);

    // the same query id again is refused (36), another one goes through
    const again = internal({ to: s.bob.address, value: toNano('0.1') });
    await expect(send(s, q, again)).rejects.toMatchObject({ exitCode: HIGHLOAD_V3_ERROR.alreadyExecuted });
    const r2 = await send(s, highloadQueryIdAt(1501n), again);
    expect(r2.transactions.filter((t) => matches(t, { from: s.wallet, to: s.bob.address }))).toHaveLength(1);
  });

  it('refuses a bad signature (33), subwallet (34), created_at (35) and timeout (38)', async () => {
    const msg = internal({ to: s.bob.address, value: toNano('0.1') });
    const cases: Array<[Parameters<typeof send>[3], number]> = [
      [{ secretKey: keyPairFromSeed(Buffer.alloc(32, 1)).secretKey }, HIGHLOAD_V3_ERROR.invalidSignature],
      [{ subwalletId: SUBWALLET + 1 }, HIGHLOAD_V3_ERROR.invalidSubwalletId],
      [{ createdAt: T0 + 10 }, HIGHLOAD_V3_ERROR.invalidCreatedAt],
      [{ createdAt: T0 - TIMEOUT }, HIGHLOAD_V3_ERROR.invalidCreatedAt],
      [{ timeout: TIMEOUT + 1 }, HIGHLOAD_V3_ERROR.invalidTimeout],
    ];
    for (const [i, [o, code]] of cases.entries()) {
      await expect(send(s, highloadQueryIdAt(BigInt(i)), msg, o), `case ${i}`).rejects.toMatchObject({
        exitCode: code,
      });
    }
  });
});
