export { actionIdOf } from './action-id.ts';
export { classifyTrace } from './classify.ts';
export {
  type ClassifyDeps,
  type ClassifyResult,
  classifyMcBlock,
  classifyStored,
  reclassifyRange,
} from './classify-block.ts';
export { interfacesOf, loadInterfaces, type TraceRequests, traceRequests } from './interfaces.ts';
export { loadTraceInputs, type StoredTrace } from './load.ts';
export { MATCHERS } from './matchers/index.ts';
export { ACTION_TYPE_SETS, expandSupported, isShown, LATEST_ACTION_TYPES, V1_ACTION_TYPES } from './supported.ts';
export { linkTrees, traceMessageOfView, traceOfTree, traceTxOfView } from './tree.ts';
export type * from './types.ts';
export { writeActions } from './write.ts';
