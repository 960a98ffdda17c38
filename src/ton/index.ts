// The only module other parts import from src/ton/ (style guide §6.2).
export * from './address/index.ts';
export * from './block/index.ts';
export * from './block-source/index.ts';
export * from './boc/index.ts';
export * from './cell/index.ts';
export * from './config/index.ts';
export * from './contract/index.ts';
export * from './contracts/index.ts';
export * from './dict/index.ts';
export * from './message/index.ts';
export * from './proof/index.ts';
export * from './stack/index.ts';
export * from './state/index.ts';
export * from './wallet/index.ts';
