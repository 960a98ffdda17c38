export * from './columns.ts';
export * from './rows.ts';
export * from './unit-rows.ts';
