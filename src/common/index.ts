export * from './config.ts';
export * from './errors.ts';
