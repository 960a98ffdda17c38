// The matcher table: tried in this order at every transaction no action took yet. Protocol matchers first (a
// composite one before the simple ones it contains), the basic fallbacks last. Add a protocol by adding its file
// and one line here.
import type { Matcher } from '../types.ts';
import { basicMatcher } from './basic.ts';
import { cocoonMatcher } from './cocoon.ts';
import { coffeeMatcher } from './coffee.ts';
import { dedustMatcher } from './dedust.ts';
import { dnsMatcher } from './dns.ts';
import { electionsMatcher } from './elections.ts';
import { jettonMatcher } from './jetton.ts';
import { multisigMatcher } from './multisig.ts';
import { nftMatcher } from './nft.ts';
import { nominatorPoolMatcher } from './nominator-pool.ts';
import { stonfiMatcher } from './stonfi.ts';
import { tonstakersMatcher } from './tonstakers.ts';
import { vestingMatcher } from './vesting.ts';

export const MATCHERS: readonly Matcher[] = [
  multisigMatcher,
  vestingMatcher,
  tonstakersMatcher,
  nominatorPoolMatcher,
  stonfiMatcher,
  dedustMatcher,
  coffeeMatcher,
  jettonMatcher,
  nftMatcher,
  dnsMatcher,
  electionsMatcher,
  cocoonMatcher,
  basicMatcher,
];
