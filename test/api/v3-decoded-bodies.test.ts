// message_content.decoded for the bodies the action classifiers read, over the 97 mainnet traces of
// ../shared/vectors/actions/traces: each such body decodes to one of the constructors ton-marker (toncenter's
// decoder, v3-api.md §7.8, Appendix A) has for its tag, or stays null where ton-marker cannot read it either (listed
// below with the reason); the tags ton-marker has no constructor for are neither decoded nor named. Field values are
// spot-checked against the same bodies read here by hand with @ton/core.
import { Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { decodeBodyString, decodedCellJson } from '../../src/api/v3/render/decode.ts';
import { decodedBodyJson, opcodeName } from '../../src/api/v3/render/message.ts';
import { hasVectors, loadVectors } from '../helpers/vectors.ts';

// biome-ignore lint/suspicious/noExplicitAny: decoded bodies are walked field by field
type Json = any;

interface TraceMessage {
  msg_hash: string;
  opcode: number | null;
  message_content: { body: string } | null;
}
interface TraceVector {
  transactions: { messages: TraceMessage[] }[];
}

/** Tags the classifiers read -> the constructors ton-marker has for them (schemes.tlb, in its order). */
const MARKER_NAMES: Record<number, readonly string[]> = {
  // STON.fi
  630424929: ['stonfi_swap', 'stonfi_swap_forward_payload'],
  4181439551: ['stonfi_payment_request'],
  32736093: ['pton_ton_transfer'],
  1702581493: ['stonfi_pay_to_v2'],
  1717886506: ['stonfi_swap_v2', 'stonfi_swap_v2_forward_payload'],
  3326308581: ['stonfi_swap_ok_forward_payload'],
  1158120768: ['stonfi_swap_ok_ref_forward_payload'],
  // DeDust
  3926267997: ['dedust_swap'],
  3818968194: ['dedust_swap'],
  1643009069: ['dedust_swap_external'],
  1923917994: ['dedust_swap_peer'],
  2907617013: ['dedust_pay_out_from_pool'],
  1196394191: ['dedust_payout'],
  3579725446: ['dedust_deposit_liquidity'],
  1088489686: ['dedust_deposit_liquidity'],
  4031694118: ['dedust_create_liquidity_deposit'],
  1411649509: ['dedust_deposit_asset'],
  3043726744: ['dedust_deposit_liquidity_all'],
  2867302998: ['dedust_fulfill_deposit'],
  3785583828: ['dedust_reject_deposit'],
  1795913855: ['dedust_pay_out_from_deposit'],
  2604311546: ['dedust_install'],
  // swap.coffee
  3237998080: ['coffee_swap'],
  3237998082: ['coffee_create_pool'],
  3237998084: ['coffee_deposit_liquidity'],
  3237998086: ['coffee_create_vault'],
  3237998097: ['coffee_create_pool_forward_payload'],
  3237998112: ['coffee_swap_internal'],
  3237998113: ['coffee_payout_internal'],
  3237998114: ['coffee_deploy'],
  3237998115: ['coffee_create_pool_creator_request'],
  3237998117: ['coffee_create_pool_request'],
  3237998119: ['coffee_create_liquidity_depository_request'],
  3237998121: ['coffee_deposit_liquidity_internal'],
  3237998128: ['coffee_swap_succeeded'],
  3237998130: ['coffee_payout'],
  3237998131: ['coffee_deposit_liquidity_succeeded'],
  3237998133: ['coffee_withdraw_liquidity_succeeded'],
  3237998134: ['coffee_notification', 'coffee_notification_forward_payload'],
  1808244350: ['coffee_mev_protect_hold_funds'],
  4182184244: ['coffee_staking_deposit'],
  3003937552: ['coffee_staking_claim_rewards', 'coffee_staking_rewards_claimed'],
  // TONCO
  2715461997: ['tonco_router_pay_to_normal', 'tonco_router_pay_to_exit_code_201'],
  774911215: ['tonco_router_create_pool'],
  1142700525: ['tonco_pool_init'],
  2818267384: ['tonco_pool_swap'],
  1147723383: ['tonco_pool_fund_account', 'tonco_pool_fund_account_payload'],
  2171612920: ['tonco_pool_mint_and_refund'],
  1393254188: ['tonco_pool_start_burn'],
  3610951837: ['tonco_pool_burn'],
  1052660785: ['tonco_account_add_liquidity'],
  3589065258: ['tonco_position_nft_init'],
  1187656538: ['tonco_position_nft_burn'],
  // EVAA
  1: ['pyth_update_guardian_set', 'evaa_supply_master'],
  2: ['evaa_withdraw_master'],
  3: ['evaa_liquidate_master'],
  282: ['evaa_supply_success'],
  287: ['evaa_supply_fail'],
  529: ['evaa_withdraw_collateralized'],
  785: ['evaa_liquidate_satisfied'],
  799: ['evaa_liquidate_unsatisfied'],
  8474: ['evaa_withdraw_success', 'evaa_withdraw_success_excess_with_data'],
  8479: ['evaa_withdraw_fail'],
  12570: ['evaa_liquidate_success'],
  12573: ['evaa_liquidate_success_report'],
  12575: ['evaa_liquidate_fail'],
  8678: ['evaa_withdraw_locked_excess'],
  8679: ['evaa_withdraw_not_collateralized_excess'],
  8680: ['evaa_withdraw_missing_prices_excess'],
  8684: ['evaa_withdraw_execution_crashed'],
  2170856: ['evaa_withdraw_no_funds_excess'],
  // JVault
  3599387329: ['jvault_receive_jettons'],
  1234866786: ['jvault_unstake_jettons'],
  23647415: ['jvault_unstake_request'],
  2027548937: ['jvault_claim_rewards_msg'],
  1153179619: ['jvault_send_claimed_rewards'],
  4123376291: ['jvault_request_update_rewards'],
  2928871374: ['jvault_update_rewards'],
  1438866240: ['jvault_request_update_referrer'],
  124708064: ['jvault_update_referrer'],
  942936554: ['jvault_set_data'],
  // Cocoon
  627413836: ['cocoon_return_excesses_back'],
  3315236051: ['cocoon_payout'],
  1299340588: ['cocoon_worker_proxy_request'],
  1698992116: ['cocoon_client_proxy_request'],
  3331243131: ['cocoon_client_proxy_refund_granted'],
  2688593192: ['cocoon_payout_payload'],
  4126304822: ['cocoon_last_payout_payload'],
  2457631925: ['cocoon_register_proxy'],
  1833560818: ['cocoon_unregister_proxy'],
  1980819179: ['cocoon_ext_proxy_payout_request'],
  4050839234: ['cocoon_ext_client_top_up'],
  3294601019: ['cocoon_owner_client_register'],
  2838851636: ['cocoon_owner_client_change_secret_hash'],
  1780443744: ['cocoon_owner_client_increase_stake'],
  3657862776: ['cocoon_owner_client_withdraw'],
  4210715841: ['cocoon_owner_client_request_refund'],
  4023849441: ['cocoon_grant_refund_payload'],
  // Tonstakers, the elector, Telemint
  1205158801: ['tonstake_pool_deposit'],
  832244956: ['tonstake_pool_withdraw'],
  175592284: ['tonstake_pool_withdrawal'],
  376746144: ['tonstake_payout_mint_jettons'],
  321886789: ['tonstake_nft_init'],
  4045930062: ['tonstake_nft_burn'],
  3982012594: ['tonstake_nft_burn_notification'],
  3678112445: ['tonstake_nft_payout'],
  1316189259: ['elector_new_stake'],
  4084484172: ['elector_new_stake_confirmation'],
  1197831204: ['elector_recover_stake_request'],
  4184830756: ['elector_recover_stake_response'],
  697974293: ['teleitem_msg_deploy', 'teleitem_msg_deploy_head'],
  940735969: ['teleitem_bid_info'],
  // Standard bodies the classifiers read too
  1680571655: ['jetton_mint'],
  923790417: ['auction_fill_up'],
  3576854235: ['excess'],
  4294967295: ['bounce'],
  4065896091: ['vesting_add_white_list_response'],
  4151524045: ['vesting_send_message_response'],
};

/** decoded_opcode where ton-marker's first constructor of the tag never reads a body (a salt no body carries). */
const FIRST_NAME: Record<number, string> = { 1: 'evaa_supply_master' };

/**
 * Bodies with such a tag that ton-marker cannot read either: a layout its schemes do not describe, or a field its
 * TL-B type refuses. Each stays null.
 */
const UNREADABLE: Record<string, string> = {
  // EVAA withdraw_master#2 of another version: 685 bits and one reference, its layout needs more.
  '0rCFm10jKbys1epds/XpREeMVyKvq+sewIkmi2PJIEE=': 'evaa_withdraw_master, other version',
  'vPO0xOXCPPAwd7dCc5M5rtFgG2bPkbxHk4VQsfXGFFU=': 'evaa_withdraw_master, other version',
  // EVAA supply_fail#11f without the custom_response_payload reference both its layouts have.
  'n0yiGCmJNP1vUJrjySq3YEr5DliTKtzUvn+PpUY5WE4=': 'evaa_supply_fail without its reference',
  // jetton_mint#642b7d07 with the amount before the address: to_address:MsgAddressInt meets a Coins value.
  'tIBgDJKhhh26XTaLKNmVqqheivFK4FFXII9YMVxrcro=': 'jetton_mint, another minter layout',
  // swap.coffee notification_data_single's receiver:MsgAddressInt is addr_none in these.
  'oNh+PCDTgs4/t/eePSSW+ih+Bf7TAnh1BZ5/hL9E3hQ=': 'coffee notification receiver addr_none',
  'yQY5VfSj3J3IRE7j4TSB6ToGOgPTs53djT6wQmFK5XY=': 'coffee notification receiver addr_none',
  'RVv/EUrrZDjqrbVtCZWx20afDgXCFsy/zQ8A/1OGbJ4=': 'coffee notification receiver addr_none',
  'C4Ok56aWjYrMcFQlTXM+A+ugqK/UwII/IhQKEVuGsLg=': 'coffee notification receiver addr_none',
  'cNLNqtesKXL8WYv+SrCXqb6IgtyaGavMuFb4erMdSXI=': 'coffee notification receiver addr_none',
  // swap.coffee staking deposit#f9471134 of the newer staking contract (three references, addr_none sender).
  'bUHqUKDgl1H7VNhO4qD+aN5b3/fk9BbuRzOkZI+qf1U=': 'coffee staking deposit, newer layout',
  'PifzALx+cQedO90yrJ2xBiCRX0+Gu5j0KuCfz+ur7S8=': 'coffee staking deposit, newer layout',
};

/**
 * Tags the classifiers read that ton-marker has no body constructor for (LayerZero, tgBTC's teleport and DKG
 * messages, Ethena, Tonstakers' and JVault's others, STON.fi v2's vault and LP messages, swap.coffee's staking
 * claim, DeDust's swap event, an external-out body outside ton-marker's groups): neither decoded nor named.
 */
const NOT_IN_MARKER = [
  0x09f047d9, 0x0c7b8418, 0x22f3ac09, 0x28b97077, 0x29c53fab, 0x3bbc306b, 0x3cb38090, 0x4002b790, 0x421c1a25,
  0x4ec8f80a, 0x536feb09, 0x5388cd88, 0x5dab749a, 0x5de68393, 0x5e178f33, 0x7fcbb4ac, 0x97df404c, 0x994aaf4e,
  0xa0d51a8d, 0xa2b5fbae, 0xb7680bc6, 0xcaae25a1, 0xdd4ea3b4, 0xe33b9873, 0xf9d37b80, 0x1a84c0e0, 0x3f781d24,
  0x587643a2, 0x690f357a, 0xbe44e7a6, 0xe42a879b, 0xb2583ed5, 0x1140a64f, 0x9eada1d9, 0x38976e9b, 0x5ffe1295,
  0xcb03bfaf, 0x9c610de3,
];

const messages: { hash: string; op: number; cell: Cell }[] = [];
if (hasVectors) {
  const seen = new Set<string>();
  for (const { data } of loadVectors<TraceVector>('actions/traces')) {
    for (const m of data.transactions.flatMap((t) => t.messages)) {
      if (seen.has(m.msg_hash) || m.opcode === null || !m.message_content) continue;
      seen.add(m.msg_hash);
      messages.push({ hash: m.msg_hash, op: m.opcode >>> 0, cell: Cell.fromBase64(m.message_content.body) });
    }
  }
}
const withOp = (op: number) => messages.filter((m) => m.op === op);

describe.runIf(hasVectors)('decoded bodies of the classifiers’ protocols (97 mainnet traces)', () => {
  it('decodes every body with a ton-marker tag to one of that tag’s constructors, or null where it cannot', () => {
    const read = messages.filter((m) => MARKER_NAMES[m.op]);
    expect(read.length).toBeGreaterThan(350);
    const seenTypes = new Set<string>();
    for (const m of read) {
      const d: Json = decodedBodyJson(m.cell);
      if (UNREADABLE[m.hash]) {
        expect(d, `${m.hash}: ${UNREADABLE[m.hash]}`).toBeNull();
        expect(decodeBodyString(m.cell.toBoc().toString('base64'))).toEqual({ error: 'unknown: no parser succeeded' });
        continue;
      }
      expect(d, `${m.hash} 0x${m.op.toString(16)}`).not.toBeNull();
      expect(MARKER_NAMES[m.op], m.hash).toContain(d['@type']);
      expect(opcodeName(m.op | 0)).toBe(FIRST_NAME[m.op] ?? MARKER_NAMES[m.op]![0]);
      seenTypes.add(d['@type']);
    }
    // Every listed exception is one of these bodies.
    for (const h of Object.keys(UNREADABLE))
      expect(
        read.some((m) => m.hash === h),
        h,
      ).toBe(true);
    expect(seenTypes.size).toBeGreaterThan(85);
  });

  it('leaves the tags ton-marker does not know undecoded and unnamed', () => {
    const unknown = messages.filter((m) => NOT_IN_MARKER.includes(m.op));
    expect(unknown.length).toBeGreaterThan(50);
    for (const m of unknown) {
      expect(decodedBodyJson(m.cell), m.hash).toBeNull();
      expect(opcodeName(m.op | 0), m.hash).toBeNull();
    }
  });

  it('STON.fi v1 swap: min_out, amounts and addresses as the router wrote them', () => {
    const swaps = withOp(0x25938561).filter((m) => decodedBodyJson(m.cell)?.['@type'] === 'stonfi_swap');
    expect(swaps.length).toBeGreaterThan(0);
    for (const m of swaps) {
      // swap#25938561 query_id:uint64 to_address sender_address jetton_amount:Coins min_out:Coins ...
      const s = m.cell.beginParse().skip(32);
      const queryId = s.loadUintBig(64).toString();
      const to = s.loadAddress().toRawString().toUpperCase();
      const sender = s.loadAddress().toRawString().toUpperCase();
      const amount = s.loadCoins().toString();
      const minOut = s.loadCoins().toString();
      const d: Json = decodedBodyJson(m.cell);
      expect([d.query_id, d.to_address, d.sender_address, d.jetton_amount, d.min_out]).toEqual([
        queryId,
        to,
        sender,
        amount,
        minOut,
      ]);
      expect(d.addrs['@type']).toBe('swap_addresses');
    }
  });

  it('DeDust swap_external: the amount and sender after the vault proof, the step limit', () => {
    const swaps = withOp(0x61ee542d);
    expect(swaps.length).toBeGreaterThan(0);
    for (const m of swaps) {
      // swap_external#61ee542d query_id proof:^Cell amount:Coins sender_addr current:(kind:1 bit, limit:Coins ...)
      const s = m.cell.beginParse().skip(32 + 64);
      s.loadRef();
      const amount = s.loadCoins().toString();
      const sender = s.loadAddress().toRawString().toUpperCase();
      const givenOut = s.loadBit();
      const limit = s.loadCoins().toString();
      const d: Json = decodedBodyJson(m.cell);
      expect([d['@type'], d.amount, d.sender_addr]).toEqual(['dedust_swap_external', amount, sender]);
      expect(d.current['@type']).toBe('step_params');
      expect(d.current.kind).toEqual({ '@type': givenOut ? 'given_out' : 'given_in' });
      expect(d.current.limit).toBe(limit);
      expect(d.proof.proof['@type']).toBe('proof');
      expect(d.proof.proof.contract_type).toEqual({ '@type': 'vault' });
    }
  });

  it('TONCO pool swap: the swap params and payload amounts behind their references', () => {
    const swaps = withOp(0xa7fb58f8);
    expect(swaps.length).toBeGreaterThan(0);
    for (const m of swaps) {
      // swap#a7fb58f8 query_id owner_address source_wallet ^(amount:Coins sqrtPriceLimitX96:uint160
      //   minOutAmount:Coins) ^(target_address ok_forward_amount:Coins ...)
      const s = m.cell.beginParse().skip(32 + 64);
      const owner = s.loadAddress().toRawString().toUpperCase();
      const p = s.loadRef().beginParse();
      const params = { amount: p.loadCoins().toString(), sqrtPriceLimitX96: p.loadUintBig(160).toString() };
      const minOut = p.loadCoins().toString();
      s.loadAddress();
      const pay = s.loadRef().beginParse();
      const target = pay.loadMaybeAddress()?.toRawString().toUpperCase() ?? null;
      const okAmount = pay.loadCoins().toString();
      const d: Json = decodedBodyJson(m.cell);
      expect([d['@type'], d.owner_address]).toEqual(['tonco_pool_swap', owner]);
      expect(d.swap_params).toEqual({ ...params, minOutAmount: minOut });
      expect([d.swap_payloads.target_address, d.swap_payloads.ok_forward_amount]).toEqual([target, okAmount]);
    }
  });

  it('swap.coffee swap_succeeded: the amounts and reserves the pool logged', () => {
    const logs = withOp(0xc0ffee30);
    expect(logs.length).toBeGreaterThan(0);
    for (const m of logs) {
      // swap_succeeded#c0ffee30 query_id input:(2-bit asset tag ...) input_amount output_amount reserves fee
      const s = m.cell.beginParse().skip(32 + 64);
      const tag = s.loadUint(2);
      if (tag === 1) s.skip(8 + 256);
      if (tag === 2) s.skip(32);
      const amounts = [s.loadCoins(), s.loadCoins(), s.loadCoins(), s.loadCoins(), s.loadCoins()].map(String);
      const d: Json = decodedBodyJson(m.cell);
      expect(d.input['@type']).toBe(['native', 'jetton', 'extra'][tag]);
      expect([
        d.input_amount,
        d.output_amount,
        d.reserves.input_reserve,
        d.reserves.output_reserve,
        d.protocol_fee,
      ]).toEqual(amounts);
    }
  });

  it('nested bodies are decoded in place: pTON transfers carry the DEX payload they forward', () => {
    const transfers = withOp(0x01f3835d);
    const types = new Set<string>();
    for (const m of transfers) {
      // ton_transfer#01f3835d query_id ton_amount refund_address forward_payload:(Either Cell ^Cell)
      const s = m.cell.beginParse().skip(32 + 64);
      s.loadCoins();
      s.loadAddressAny();
      const payload = s.loadBit() ? s.loadRef() : s.asCell();
      const d: Json = decodedBodyJson(m.cell);
      // Decoded as /decode decodes a body (a comment as {"@type","text"}); one that is no body stays its BoC.
      const boc = payload.toBoc({ idx: false, crc32: false }).toString('base64');
      expect(d.forward_payload).toEqual(decodedCellJson(payload) ?? boc);
      if (typeof d.forward_payload === 'object') types.add(d.forward_payload['@type']);
    }
    // STON.fi v2 and TONCO route TON through pTON.
    expect(types).toContain('stonfi_swap_v2_forward_payload');
    expect(types).toContain('tonco_pool_fund_account_payload');
  });
});
