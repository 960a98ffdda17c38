export * from './aug-dict.ts';
export * from './bin-tree.ts';
export { loadHashmapRefs, type RefEntry } from './hashmap-refs.ts';
export { lenBits, loadHmLabel, storeHmLabel } from './hm-label.ts';
