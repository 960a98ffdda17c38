// Cocoon requests on hand-built traces: the fields each body gives, the forward/payout/excess messages taken along,
// an aborted request failing, and bodies that do not parse staying contract calls. (The mainnet traces of
// vectors/actions run through test/index/actions-mainnet.test.ts.)
import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { COCOON_OP } from './cocoon.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const OWNER = addr('owner');
const CLIENT = addr('client');
const PROXY = addr('proxy');
const WORKER = addr('worker');

const op = (code: number, queryId = 7n) => beginCell().storeUint(code, 32).storeUint(queryId, 64);

describe('cocoon matcher', () => {
  it('client top-up: amount from the body, the proxy it forwards to as destination_secondary', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const client = b.send(
      root,
      CLIENT,
      op(COCOON_OP.clientTopUp).storeCoins(1_000_000_000n).storeAddress(null).endCell(),
    );
    const fwd = b.send(client, PROXY, beginCell().storeUint(COCOON_OP.forward, 32).storeUint(7n, 64).endCell());
    const excess = b.send(fwd, OWNER, beginCell().storeUint(COCOON_OP.excesses, 32).storeUint(7n, 64).endCell());
    const [a, ...rest] = byType(b.classify(root, {}), 'cocoon_client_top_up');
    expect(rest).toEqual([]);
    expect(a).toMatchObject({
      success: true,
      source: OWNER,
      destination: CLIENT,
      destinationSecondary: PROXY,
      amount: 1_000_000_000n,
      details: { query_id: '7', source: OWNER, destination: CLIENT, amount: '1000000000' },
    });
    expect(new Set(a!.txHashes)).toEqual(new Set([root, client, fwd, excess].map((n) => n.tx.hash)));
  });

  it('reads the other client requests and the proxy ones', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const hash = Buffer.alloc(32, 0xab);
    b.send(root, CLIENT, op(COCOON_OP.clientChangeSecretHash, 1n).storeBuffer(hash).endCell());
    b.send(
      root,
      CLIENT,
      op(COCOON_OP.clientRegister, 2n)
        .storeUint(2n ** 64n - 1n, 64)
        .endCell(),
    );
    b.send(root, CLIENT, op(COCOON_OP.clientIncreaseStake, 3n).storeCoins(18n).endCell());
    b.send(root, CLIENT, op(COCOON_OP.clientRequestRefund, 4n).storeAddress(null).endCell());
    b.send(root, PROXY, op(COCOON_OP.unregisterProxy, 5n).storeUint(9, 32).endCell());
    const actions = b.classify(root, {});
    expect(byType(actions, 'cocoon_client_change_secret_hash')[0]?.details).toMatchObject({
      query_id: '1',
      new_secret_hash: 'ab'.repeat(32),
    });
    expect(byType(actions, 'cocoon_client_register')[0]?.details).toMatchObject({ nonce: (2n ** 64n - 1n).toString() });
    expect(byType(actions, 'cocoon_client_increase_stake')[0]).toMatchObject({
      amount: 18n,
      details: { new_stake: '18' },
    });
    expect(byType(actions, 'cocoon_client_request_refund')[0]?.details).toMatchObject({ via_wallet: false });
    const unregister = byType(actions, 'cocoon_unregister_proxy')[0];
    expect(unregister?.details).toEqual({ query_id: '5', seqno: 9, destination: PROXY });
  });

  it('client withdraw: the amount the forward asks the proxy to pay', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    const client = b.send(root, CLIENT, op(COCOON_OP.clientWithdraw).storeAddress(null).endCell());
    const request = beginCell().storeUint(COCOON_OP.payoutRequest, 32).storeCoins(999n).endCell();
    const fwd = b.send(client, PROXY, op(COCOON_OP.forward).storeRef(request).endCell());
    b.send(fwd, OWNER, op(COCOON_OP.payout).endCell(), { value: 999n });
    const a = byType(b.classify(root, {}), 'cocoon_client_withdraw')[0];
    expect(a).toMatchObject({ amount: 999n, details: { withdraw_amount: '999' } });
  });

  // A signed payload as the chain carries it: op, query_id, send_excesses_to, signature, ^signed data.
  const signed = (code: number, excessesTo: ReturnType<typeof Address.parseRaw>) =>
    op(code, 9n).storeAddress(excessesTo).storeBuffer(Buffer.alloc(64, 0xff)).storeRef(beginCell().endCell()).endCell();
  // The first 64 bits of a std address: tag 10, no anycast, workchain, the hash's first 53 bits.
  const first64 = (a: ReturnType<typeof Address.parseRaw>) =>
    (0b100n << 61n) | (BigInt(a.workChain & 0xff) << 53n) | (BigInt(`0x${a.hash.toString('hex')}`) >> 203n);

  it('worker payout: new_tokens read from the address after query_id, as toncenter reads it', () => {
    const b = new TraceBuilder();
    const root = b.external(PROXY);
    // Hash bits 53-54 are 00: toncenter's expected address is addr_none.
    const excessesTo = Address.parseRaw(`0:${'00'.repeat(32)}`);
    const worker = b.send(root, WORKER, signed(COCOON_OP.lastPayoutPayload, excessesTo));
    const request = op(COCOON_OP.workerRequest, 9n).storeAddress(Address.parseRaw(OWNER)).storeUint(2, 2);
    const report = b.send(worker, PROXY, request.storeUint(123n, 64).storeMaybeRef(null).endCell());
    const payout = b.send(report, OWNER, op(COCOON_OP.payout, 9n).endCell(), { value: 500n, aborted: true });
    b.send(report, PROXY, op(COCOON_OP.excesses, 9n).endCell());
    const [a, ...rest] = byType(b.classify(root, {}), 'cocoon_worker_payout');
    expect(rest).toEqual([]);
    expect(a).toMatchObject({
      success: false,
      source: PROXY,
      sourceSecondary: WORKER,
      destination: OWNER,
      amount: 500n,
      details: {
        payout_type: 'last',
        query_id: '9',
        new_tokens: first64(excessesTo).toString(),
        worker_state: 2,
        worker_tokens: '123',
        source: PROXY,
        destination: OWNER,
        amount: '500',
      },
    });
    expect(a!.txHashes).toContain(payout.tx.hash);
  });

  it('grant refund: new_tokens_used and expected_address from the address bits; no excesses, no action', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    // Hash bits 53-54 = 01: an external address, its 9-bit length 5 (bits 55-63), its value hash bits 64-68 (0b10110).
    const hash = (0b01_000000101n << 192n) | (0b10110n << 187n);
    const excessesTo = Address.parseRaw(`0:${hash.toString(16).padStart(64, '0')}`);
    const proxy = b.send(root, PROXY, signed(COCOON_OP.grantRefundPayload, excessesTo));
    const fwd = b.send(proxy, CLIENT, op(COCOON_OP.forward, 9n).endCell());
    b.send(fwd, OWNER, op(COCOON_OP.payout, 9n).endCell(), { value: 77n });
    b.send(fwd, OWNER, op(COCOON_OP.excesses, 9n).endCell());
    const a = byType(b.classify(root, {}), 'cocoon_grant_refund')[0];
    expect(a).toMatchObject({
      success: true,
      source: PROXY,
      sourceSecondary: CLIENT,
      destination: OWNER,
      amount: 77n,
      details: {
        query_id: '9',
        new_tokens_used: first64(excessesTo).toString(),
        expected_address: '5;16',
        source: PROXY,
        destination: OWNER,
        amount: '77',
      },
    });

    const b2 = new TraceBuilder();
    const root2 = b2.external(OWNER);
    const proxy2 = b2.send(root2, PROXY, signed(COCOON_OP.grantRefundPayload, excessesTo));
    const fwd2 = b2.send(proxy2, CLIENT, op(COCOON_OP.forward, 9n).endCell());
    b2.send(fwd2, OWNER, op(COCOON_OP.payout, 9n).endCell(), { value: 77n });
    expect(byType(b2.classify(root2, {}), 'cocoon_grant_refund')).toEqual([]);
  });

  it('an aborted request fails; an unreadable body stays a contract call', () => {
    const b = new TraceBuilder();
    const root = b.external(OWNER);
    b.send(root, CLIENT, op(COCOON_OP.clientIncreaseStake).storeCoins(5n).endCell(), { aborted: true });
    b.send(root, PROXY, beginCell().storeUint(COCOON_OP.clientRegister, 32).storeUint(1, 8).endCell());
    const actions = b.classify(root, {});
    expect(byType(actions, 'cocoon_client_increase_stake')[0]?.success).toBe(false);
    expect(byType(actions, 'cocoon_client_register')).toEqual([]);
    expect(byType(actions, 'call_contract').map((a) => a.destination)).toEqual([PROXY]);
  });
});
