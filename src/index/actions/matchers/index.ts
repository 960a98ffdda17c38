// The matcher table: tried in this order at every transaction no action took yet. Protocol matchers first (a
// composite one before the simple ones it contains), the basic fallbacks last. Add a protocol by adding its file
// and one line here.
import type { Matcher } from '../types.ts';
import { basicMatcher } from './basic.ts';
import { cocoonMatcher } from './cocoon.ts';
import { coffeeMatcher } from './coffee.ts';
import { coffeeDexMatcher } from './coffee-dex.ts';
import { dedustMatcher } from './dedust.ts';
import { dedustLiquidityMatcher } from './dedust-liquidity.ts';
import { dnsMatcher } from './dns.ts';
import { electionsMatcher } from './elections.ts';
import { ethenaMatcher } from './ethena.ts';
import { evaaMatcher } from './evaa.ts';
import { failedExternalMatcher } from './failed-external.ts';
import { jettonMatcher } from './jetton.ts';
import { jvaultMatcher } from './jvault.ts';
import { layerzeroMatcher } from './layerzero.ts';
import { multisigMatcher } from './multisig.ts';
import { nftMatcher } from './nft.ts';
import { nominatorPoolMatcher } from './nominator-pool.ts';
import { stonfiMatcher } from './stonfi.ts';
import { tgbtcMatcher } from './tgbtc.ts';
import { toncoMatcher } from './tonco.ts';
import { tonstakersMatcher } from './tonstakers.ts';
import { vestingMatcher } from './vesting.ts';

export const MATCHERS: readonly Matcher[] = [
  multisigMatcher,
  vestingMatcher,
  tonstakersMatcher,
  nominatorPoolMatcher,
  stonfiMatcher,
  dedustMatcher,
  dedustLiquidityMatcher,
  coffeeMatcher,
  coffeeDexMatcher,
  toncoMatcher,
  ethenaMatcher,
  tgbtcMatcher,
  jvaultMatcher,
  evaaMatcher,
  layerzeroMatcher,
  jettonMatcher,
  nftMatcher,
  dnsMatcher,
  electionsMatcher,
  cocoonMatcher,
  failedExternalMatcher,
  basicMatcher,
];
