// The protocol body readers, field by field, on bodies built here with @ton/core's Builder in the layouts the
// protocols send (ton-marker's TL-B): names, values, nesting, and the fallback to the next constructor of a tag.
import { Address, beginCell, type Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { MarkerRecord, markerOpcodeName, parseMarkerBody } from './index.ts';

const A = Address.parse(`0:${'11'.repeat(32)}`);
const B = Address.parse(`0:${'22'.repeat(32)}`);
const C = Address.parse(`-1:${'33'.repeat(32)}`);

const parse = (c: Cell) => {
  const b = parseMarkerBody(c);
  if (!b) throw new Error('not decoded');
  return b;
};
const rec = (v: unknown): MarkerRecord => {
  expect(v).toBeInstanceOf(MarkerRecord);
  return v as MarkerRecord;
};
const addr = (v: unknown) => (v as Address).toRawString();

describe('STON.fi', () => {
  it('v1 swap: the router -> pool body, addresses and amounts', () => {
    const b = parse(
      beginCell()
        .storeUint(0x25938561, 32)
        .storeUint(7, 64)
        .storeAddress(A)
        .storeAddress(B)
        .storeCoins(1000)
        .storeCoins(990)
        .storeBit(false)
        .storeRef(beginCell().storeAddress(C))
        .endCell(),
    );
    expect(b.name).toBe('stonfi_swap');
    expect([b.fields.query_id, addr(b.fields.to_address), addr(b.fields.sender_address)]).toEqual([
      7n,
      A.toRawString(),
      B.toRawString(),
    ]);
    expect([b.fields.jetton_amount, b.fields.min_out, b.fields.has_ref_address]).toEqual([1000n, 990n, false]);
    const addrs = rec(b.fields.addrs);
    expect(addrs.name).toBe('swap_addresses');
    expect(addr(addrs.fields.from_user)).toBe(C.toRawString());
  });

  it('v1 swap as a jetton_notify payload falls through to the forward-payload constructor', () => {
    // token_wallet min_out to_address referral_address:(Maybe MsgAddress): too short for the router body.
    const b = parse(
      beginCell().storeUint(0x25938561, 32).storeAddress(A).storeCoins(5).storeAddress(B).storeBit(false).endCell(),
    );
    expect(b.name).toBe('stonfi_swap_forward_payload');
    expect([
      addr(b.fields.token_wallet),
      b.fields.min_out,
      addr(b.fields.to_address),
      b.fields.referral_address,
    ]).toEqual([A.toRawString(), 5n, B.toRawString(), null]);
  });

  it('v2 swap: the dex payload and its swap body shown in the body itself', () => {
    const swapBody = beginCell()
      .storeCoins(77)
      .storeAddress(A)
      .storeCoins(3)
      .storeMaybeRef(null)
      .storeCoins(4)
      .storeMaybeRef(null)
      .storeUint(10, 16)
      .storeAddress(null)
      .endCell();
    const dex = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeAddress(B)
      .storeAddress(A)
      .storeAddress(A)
      .storeUint(1700000000, 64)
      .storeRef(swapBody)
      .endCell();
    const b = parse(
      beginCell()
        .storeUint(0x6664de2a, 32)
        .storeUint(1, 64)
        .storeAddress(A)
        .storeCoins(100)
        .storeCoins(0)
        .storeRef(dex)
        .endCell(),
    );
    expect(b.name).toBe('stonfi_swap_v2');
    expect(Object.keys(b.fields)).toEqual([
      'query_id',
      'from_user',
      'left_amount',
      'right_amount',
      'transferred_op',
      'token_wallet1',
      'refund_address',
      'excesses_address',
      'tx_deadline',
      'min_out',
      'receiver',
      'fwd_gas',
      'custom_payload',
      'refund_fwd_gas',
      'refund_payload',
      'ref_fee',
      'ref_address',
    ]);
    expect([
      b.fields.left_amount,
      b.fields.transferred_op,
      b.fields.tx_deadline,
      b.fields.min_out,
      b.fields.ref_fee,
    ]).toEqual([100n, 0x0f8a7ea5n, 1700000000n, 77n, 10n]);
    expect(b.fields.ref_address).toBeNull();
  });

  it('a reference with data left over is not the layout: the next constructor of the tag is tried', () => {
    const b = beginCell()
      .storeUint(0x25938561, 32)
      .storeUint(7, 64)
      .storeAddress(A)
      .storeAddress(B)
      .storeCoins(1)
      .storeCoins(1)
      .storeBit(false)
      .storeRef(beginCell().storeAddress(C).storeUint(1, 1))
      .endCell();
    // The forward-payload layout reads what it can of the same bits (zero query-id bits as addr_none), as
    // ton-marker's would: it does not require the body's own bits to be used up.
    expect(parseMarkerBody(b)?.name).toBe('stonfi_swap_forward_payload');
  });
});

describe('DeDust', () => {
  const step = (pool: Address, limit: number, next: Cell | null) =>
    beginCell().storeAddress(pool).storeUint(1, 1).storeCoins(limit).storeMaybeRef(next);
  const params = beginCell()
    .storeUint(1700000001, 32)
    .storeAddress(A)
    .storeAddress(null)
    .storeMaybeRef(null)
    .storeMaybeRef(null)
    .endCell();

  it('swap#ea06185d: the step in the body, the next step nested, swap params with the deadline record', () => {
    const next = step(B, 9, null).endCell();
    const b = parse(
      beginCell()
        .storeUint(0xea06185d, 32)
        .storeUint(3, 64)
        .storeCoins(5000)
        .storeBuilder(step(C, 8, next))
        .storeRef(params)
        .endCell(),
    );
    expect(b.name).toBe('dedust_swap');
    expect([b.fields.query_id, b.fields.amount, addr(b.fields.pool_addr)]).toEqual([3n, 5000n, C.toRawString()]);
    const p = rec(b.fields.params);
    expect(p.name).toBe('step_params');
    expect(rec(p.fields.kind).name).toBe('given_out');
    expect(p.fields.limit).toBe(8n);
    const n = rec(p.fields.next);
    expect([n.name, addr(n.fields.pool_addr)]).toEqual(['step', B.toRawString()]);
    const sp = rec(b.fields.swap_params);
    expect(sp.name).toBe('swap_params');
    expect(rec(sp.fields.deadline).fields).toEqual({ timestamp: 1700000001n });
    expect(sp.fields.referral_addr).toBeNull();
  });

  it('deposit_liquidity#d55e4686: the nested-params layout first, the flat one when that does not read', () => {
    const pool = beginCell()
      .storeBit(false)
      .storeUint(0, 4)
      .storeUint(1, 4)
      .storeInt(0, 8)
      .storeBuffer(Buffer.alloc(32, 0xab));
    const nested = parse(
      beginCell()
        .storeUint(0xd55e4686, 32)
        .storeUint(1, 64)
        .storeCoins(10)
        .storeBuilder(pool)
        .storeRef(beginCell().storeCoins(1).storeCoins(2).storeCoins(3))
        .storeMaybeRef(null)
        .storeMaybeRef(null)
        .endCell(),
    );
    expect(nested.name).toBe('dedust_deposit_liquidity');
    expect(rec(nested.fields.deposit_params).fields).toEqual({
      min_lp_amount: 1n,
      asset0_target_balance: 2n,
      asset1_target_balance: 3n,
    });
    const pp = rec(nested.fields.pool_params);
    expect(rec(pp.fields.asset0).name).toBe('native');
    expect(rec(pp.fields.asset1).fields).toEqual({ workchain_id: 0n, address: Buffer.alloc(32, 0xab) });
    const flat = parse(
      beginCell()
        .storeUint(0xd55e4686, 32)
        .storeUint(1, 64)
        .storeCoins(10)
        .storeBuilder(pool)
        .storeCoins(1)
        .storeCoins(2)
        .storeCoins(3)
        .storeMaybeRef(null)
        .storeMaybeRef(null)
        .endCell(),
    );
    expect(flat.name).toBe('dedust_deposit_liquidity');
    expect([flat.fields.min_lp_amount, flat.fields.asset0_target_balance, flat.fields.asset1_target_balance]).toEqual([
      1n,
      2n,
      3n,
    ]);
  });
});

describe('swap.coffee', () => {
  it('swap#c0ffee00: the first step in the body, the swap params behind a reference', () => {
    const sp = beginCell().storeUint(1700000002, 32).storeAddress(A).storeAddress(B).storeMaybeRef(null).endCell();
    const b = parse(
      beginCell()
        .storeUint(0xc0ffee00, 32)
        .storeUint(2, 64)
        .storeCoins(300)
        .storeUint(0xabcdefn, 256)
        .storeCoins(290)
        .storeMaybeRef(null)
        .storeRef(sp)
        .endCell(),
    );
    expect(b.name).toBe('coffee_swap');
    expect([b.fields.amount, b.fields.pool_address_hash, b.fields.min_output_amount, b.fields.next]).toEqual([
      300n,
      0xabcdefn,
      290n,
      null,
    ]);
    expect(rec(b.fields.params).fields.deadline).toBe(1700000002n);
  });

  it('b30c7310: claim_rewards when its payload reads, else the rewards_claimed log of the same tag', () => {
    const log = parse(
      beginCell().storeUint(0xb30c7310, 32).storeUint(1, 64).storeAddress(A).storeCoins(12).storeAddress(B).endCell(),
    );
    // A claim has a Maybe bit after the receiver; the log ends there, so the claim's read runs out of bits.
    expect(log.name).toBe('coffee_staking_rewards_claimed');
    expect(log.fields.amount).toBe(12n);
    const claim = parse(
      beginCell()
        .storeUint(0xb30c7310, 32)
        .storeUint(1, 64)
        .storeAddress(A)
        .storeCoins(12)
        .storeAddress(B)
        .storeMaybeRef(beginCell().storeCoins(4).storeRef(beginCell()))
        .endCell(),
    );
    expect(claim.name).toBe('coffee_staking_claim_rewards');
    expect(rec(claim.fields.payload).fields.gas).toBe(4n);
  });
});

describe('TONCO', () => {
  it('pool swap#a7fb58f8: swap params under TONCO’s own (camelCase) names, payloads', () => {
    const b = parse(
      beginCell()
        .storeUint(0xa7fb58f8, 32)
        .storeUint(9, 64)
        .storeAddress(A)
        .storeAddress(B)
        .storeRef(beginCell().storeCoins(1000).storeUint(123n, 160).storeCoins(950))
        .storeRef(beginCell().storeAddress(C).storeCoins(1).storeMaybeRef(null).storeCoins(2).storeMaybeRef(null))
        .endCell(),
    );
    expect(b.name).toBe('tonco_pool_swap');
    expect(rec(b.fields.swap_params).fields).toEqual({ amount: 1000n, sqrtPriceLimitX96: 123n, minOutAmount: 950n });
    const p = rec(b.fields.swap_payloads);
    expect(p.name).toBeNull();
    expect([addr(p.fields.target_address), p.fields.ok_forward_amount, p.fields.ret_forward_amount]).toEqual([
      C.toRawString(),
      1n,
      2n,
    ]);
  });

  it('burn#d73ac09d: signed ticks and the fee cells', () => {
    const b = parse(
      beginCell()
        .storeUint(0xd73ac09d, 32)
        .storeUint(1, 64)
        .storeAddress(A)
        .storeUint(4, 64)
        .storeUint(50, 128)
        .storeInt(-60, 24)
        .storeInt(60, 24)
        .storeUint(25, 128)
        .storeRef(beginCell().storeUint(1, 256).storeUint(2, 256))
        .storeRef(beginCell().storeUint(3, 256).storeUint(4, 256))
        .endCell(),
    );
    expect([b.fields.tick_lower, b.fields.tick_upper, b.fields.liquidity_to_burn]).toEqual([-60n, 60n, 25n]);
    expect(rec(b.fields.new_fee_cell).fields).toEqual({
      fee_growth_inside_0_current_x128: 3n,
      fee_growth_inside_1_current_x128: 4n,
    });
  });
});

describe('EVAA, JVault, Cocoon, staking, Telemint', () => {
  it('EVAA supply_success: the newest layout that reads (v8 here), amounts in their one-field records', () => {
    const b = parse(
      beginCell()
        .storeUint(0x11a, 32)
        .storeUint(1, 64)
        .storeAddress(A)
        .storeUint(0xfeedn, 256)
        .storeUint(100, 64)
        .storeInt(-5, 64)
        .storeInt(0, 64)
        .storeInt(95, 64)
        .storeRef(beginCell())
        .endCell(),
    );
    expect(b.name).toBe('evaa_supply_success');
    expect(rec(b.fields.asset_id).fields).toEqual({ asset_id: 0xfeedn });
    expect(rec(b.fields.amount_supplied).fields).toEqual({ amount: 100n });
    expect(rec(b.fields.user_new_principal).fields).toEqual({ principal: -5n });
    expect(rec(b.fields.supply_amount_principal).fields).toEqual({ principal: 95n });
    expect(b.fields.subaccount_id).toBeUndefined();
  });

  it('JVault claim_rewards: the jettons to claim, by address', () => {
    const d = Dictionary.empty(Dictionary.Keys.Address(), Dictionary.Values.Uint(1));
    d.set(A, 1);
    const b = parse(beginCell().storeUint(0x78d9f109, 32).storeUint(3, 64).storeDict(d).endCell());
    expect(b.name).toBe('jvault_claim_rewards_msg');
    const got = b.fields.jettons_to_claim as Dictionary<Address, MarkerRecord>;
    expect(got.get(A)?.fields).toEqual({ bit: 1n });
  });

  it('Cocoon payout payload and the elector’s new_stake', () => {
    const p = parse(
      beginCell().storeUint(0xa040ad28, 32).storeUint(1, 64).storeUint(4242, 64).storeAddress(B).endCell(),
    );
    expect([p.name, p.fields.new_tokens, addr(p.fields.expected_my_address)]).toEqual([
      'cocoon_payout_payload',
      4242n,
      B.toRawString(),
    ]);
    const sig = Buffer.alloc(64, 7);
    const s = parse(
      beginCell()
        .storeUint(0x4e73744b, 32)
        .storeUint(1, 64)
        .storeBuffer(Buffer.alloc(32, 1))
        .storeUint(1700000003, 32)
        .storeUint(65536 * 3, 32)
        .storeBuffer(Buffer.alloc(32, 2))
        .storeRef(beginCell().storeBuffer(sig))
        .endCell(),
    );
    expect([s.name, s.fields.stake_at, s.fields.max_factor, s.fields.signature]).toEqual([
      'elector_new_stake',
      1700000003n,
      196608n,
      sig,
    ]);
  });

  it('Tonstakers burn notification and Telemint bid info', () => {
    const t = parse(
      beginCell().storeUint(0xed58b0b2, 32).storeUint(1, 64).storeCoins(77).storeAddress(A).storeUint(5, 64).endCell(),
    );
    expect([t.name, t.fields.amount, t.fields.index]).toEqual(['tonstake_nft_burn_notification', 77n, 5n]);
    const bid = parse(
      beginCell()
        .storeUint(0x38127de1, 32)
        .storeCoins(10n ** 9n)
        .storeUint(1700000004, 32)
        .endCell(),
    );
    expect([bid.name, bid.fields.bid, bid.fields.bid_ts]).toEqual(['teleitem_bid_info', 10n ** 9n, 1700000004n]);
  });
});

describe('tags', () => {
  it('names a tag by its first constructor; unknown tags and short bodies are not decoded', () => {
    expect(markerOpcodeName(0x25938561)).toBe('stonfi_swap');
    expect(markerOpcodeName(0xa1daa96d)).toBe('tonco_router_pay_to_normal');
    expect(markerOpcodeName(0x00000001)).toBe('evaa_supply_master');
    expect(markerOpcodeName(0x00000002)).toBe('evaa_withdraw_master');
    expect(markerOpcodeName(0xdeadbeef)).toBeNull();
    expect(parseMarkerBody(beginCell().storeUint(0xdeadbeef, 32).endCell())).toBeNull();
    expect(parseMarkerBody(beginCell().storeUint(0x2565, 16).endCell())).toBeNull();
    // cocoon_return_excesses_back without its query id
    expect(parseMarkerBody(beginCell().storeUint(0x2565934c, 32).endCell())).toBeNull();
  });
});
