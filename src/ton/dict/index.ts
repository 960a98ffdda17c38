export * from './aug-dict.ts';
export * from './bin-tree.ts';
export { lenBits, loadHmLabel, storeHmLabel } from './hm-label.ts';
