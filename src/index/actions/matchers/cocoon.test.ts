// Cocoon requests on hand-built traces: the fields each body gives, the forward/payout/excess messages taken along,
// an aborted request failing, and bodies that do not parse staying contract calls. (The mainnet traces of
// vectors/actions run through test/index/actions-mainnet.test.ts.)
import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { COCOON_OP } from './cocoon.ts';
import { addr, byType, TraceBuilder } from './trace-builder.test-util.ts';

const OWNER = addr('owner');
const CLIENT = addr('client');
const PROXY = addr('proxy');

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
