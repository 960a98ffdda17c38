import type { V3RouteGroup } from '../plugin.ts';

export const messageRoutes: V3RouteGroup = (_app, _ctx) => {};
