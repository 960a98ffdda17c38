export { lookupHashmap, lookupHashmapInProof, PRUNED_PATH } from './hashmap-lookup.ts';
export { contractMethodIds, createContractMethodsCache, getMethodId } from './method-ids.ts';
