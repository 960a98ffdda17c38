export {
  type AssembledBlock,
  type AssembleOptions,
  assembleTraces,
  startTraceAssembly,
  traceAssemblyState,
} from './assemble.ts';
