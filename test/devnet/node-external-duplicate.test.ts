// The same external message sent twice at once (toncenter's Python server and clients that retry do this): the
// copy that arrives while the first one is still being checked must get that check's outcome. It used to be
// taken for a message already waiting in the pool and accepted without a check, so a refused message came back
// accepted to one of its senders (found by the ton-http-api oracle, test/oracles/http.test.ts).
import { createHash } from 'node:crypto';
import { beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { keyPairFromSeed, mnemonicToPrivateKey } from '@ton/crypto';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, startDevnet } from '../helpers/devnet-node.ts';

let d: Devnet;

beforeAll(async () => {
  d = await startDevnet({ seed: 'node-external-duplicate', blockIntervalMs: 60 });
  await d.node.waitMasterchainSeqno(6);
});

afterAll(async () => {
  await d?.close();
});

describe('sendMessage of one message twice at once', () => {
  it('refuses both copies of a refused message', async () => {
    const entry = d.wallets.find((w) => w.version === 'v4r2');
    if (!entry) throw new Error('no v4r2 wallet');
    const keys = await mnemonicToPrivateKey(entry.mnemonic);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
    const wrong = keyPairFromSeed(createHash('sha256').update('not the wallet key').digest());
    const body = wallet.createTransfer({
      seqno: 0,
      secretKey: wrong.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: wallet.address, value: toNano('1'), bounce: false })],
    });
    const boc = beginCell()
      .store(storeMessage(external({ to: wallet.address, body })))
      .endCell()
      .toBoc();
    const outcomes = await Promise.all(
      [0, 1, 2].map(() =>
        d.lite.client.sendMessage(boc).then(
          () => 'accepted',
          (e: Error) => e.message,
        ),
      ),
    );
    for (const o of outcomes) {
      expect(o).toMatch(/^cannot apply external message to current state : External message was not accepted/);
    }
  });
});
