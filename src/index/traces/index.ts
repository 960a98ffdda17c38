export {
  type AssembledBlock,
  type AssembleOptions,
  assembleTraces,
  startTraceAssembly,
  traceAssemblyState,
} from './assemble.ts';
export { type RebuildResult, rebuildTraces } from './rebuild.ts';
