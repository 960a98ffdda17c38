export * from './columns.ts';
export * from './rows.ts';
