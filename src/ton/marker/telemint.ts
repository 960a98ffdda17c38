// Telemint (Telegram usernames and numbers) item bodies, as ton-marker names them: the collection's deploy of an
// item#299a3e15 (the full form with token info, content, auction config and royalty, then its head alone) and the
// item's bid_info#38127de1 answer.
import {
  address,
  addressInt,
  bits,
  body,
  cell,
  coins,
  type MarkerConstructor,
  type Read,
  record,
  ref,
  uint,
} from './read.ts';

// telemint_text$_ len:(## 8) text:(bits (len * 8))
const text: Read = (s) => {
  const len = s.loadUint(8);
  return record('telemint_text', [
    ['len', () => BigInt(len)],
    ['text', bits(len * 8)],
  ])(s);
};

export const TELEMINT_BODIES: readonly MarkerConstructor[] = [
  // deploy#299a3e15 sender_address bid:Grams token_info:^(name domain) nft_content:^Cell
  //   auction_config:^(beneficiary_address initial_min_bid max_bid min_bid_step:uint8 min_extend_time:uint32
  //   duration:uint32) royalty_params:^(numerator:uint16 denominator:uint16 destination)
  body('teleitem_msg_deploy', 0x299a3e15, [
    ['sender_address', addressInt],
    ['bid', coins],
    [
      'token_info',
      ref(
        record('telemint_token_info', [
          ['name', text],
          ['domain', text],
        ]),
      ),
    ],
    ['nft_content', cell],
    [
      'auction_config',
      ref(
        record('teleitem_auction_config', [
          ['beneficiary_address', addressInt],
          ['initial_min_bid', coins],
          ['max_bid', coins],
          ['min_bid_step', uint(8)],
          ['min_extend_time', uint(32)],
          ['duration', uint(32)],
        ]),
      ),
    ],
    [
      'royalty_params',
      ref(
        record('nft_royalty_params', [
          ['numerator', uint(16)],
          ['denominator', uint(16)],
          ['destination', address],
        ]),
      ),
    ],
  ]),
  // bid_info#38127de1 bid:Grams bid_ts:uint32
  body('teleitem_bid_info', 0x38127de1, [
    ['bid', coins],
    ['bid_ts', uint(32)],
  ]),
  // deploy#299a3e15, the head only: sender_address bid:Grams
  body('teleitem_msg_deploy_head', 0x299a3e15, [
    ['sender_address', addressInt],
    ['bid', coins],
  ]),
];
