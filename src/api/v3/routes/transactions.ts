import type { V3RouteGroup } from '../plugin.ts';

export const transactionRoutes: V3RouteGroup = (_app, _ctx) => {};
