// Every v3 route group, registered in this order. A group owns one file.
import type { V3RouteGroup } from '../context.ts';
import { accountRoutes } from './accounts.ts';
import { actionRoutes } from './actions.ts';
import { blockRoutes } from './blocks.ts';
import { decodeRoutes } from './decode.ts';
import { dnsRoutes } from './dns.ts';
import { docsRoutes } from './docs.ts';
import { jettonRoutes } from './jettons.ts';
import { legacyRoutes } from './legacy.ts';
import { messageRoutes } from './messages.ts';
import { multisigRoutes } from './multisig.ts';
import { nftSaleRoutes } from './nft-sales.ts';
import { nftRoutes } from './nfts.ts';
import { pendingRoutes } from './pending.ts';
import { traceRoutes } from './traces.ts';
import { transactionRoutes } from './transactions.ts';
import { vestingRoutes } from './vesting.ts';

export const routeGroups: V3RouteGroup[] = [
  blockRoutes,
  transactionRoutes,
  messageRoutes,
  accountRoutes,
  jettonRoutes,
  nftRoutes,
  nftSaleRoutes,
  dnsRoutes,
  multisigRoutes,
  vestingRoutes,
  traceRoutes,
  actionRoutes,
  pendingRoutes,
  legacyRoutes,
  decodeRoutes,
  docsRoutes,
];
