export { lookupHashmap } from './hashmap-lookup.ts';
export { contractMethodIds, createContractMethodsCache, getMethodId } from './method-ids.ts';
