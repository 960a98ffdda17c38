import type { V3RouteGroup } from '../plugin.ts';

export const accountRoutes: V3RouteGroup = (_app, _ctx) => {};
