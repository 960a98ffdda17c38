export * from './config.ts';
export * from './errors.ts';
export * from './group-by.ts';
export * from './lru.ts';
export * from './metrics.ts';
