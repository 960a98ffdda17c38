// Every v3 route group, registered in this order. A group owns one file.
import type { V3RouteGroup } from '../plugin.ts';
import { accountRoutes } from './accounts.ts';
import { blockRoutes } from './blocks.ts';
import { docsRoutes } from './docs.ts';
import { messageRoutes } from './messages.ts';
import { transactionRoutes } from './transactions.ts';

export const routeGroups: V3RouteGroup[] = [blockRoutes, transactionRoutes, messageRoutes, accountRoutes, docsRoutes];
