// Pending traces (issue 10, v3-api.md §8): external messages sent through our APIs, emulated before they land and
// stored in pending_traces for /api/v3/pendingTraces, pendingActions and pendingTransactions.
export { type PendingActionJson, pendingActionJson } from './action-json.ts';
export { detectInterfaces, MAX_PROBED_ACCOUNTS } from './detect.ts';
export {
  DEFAULT_TRACE_LIMITS,
  type EmulatedTrace,
  type EmulatedTransaction,
  emulateTrace,
  TraceEmulationError,
  type TraceEmulationFailure,
  type TraceEmulatorDeps,
  type TraceLimits,
} from './emulate-trace.ts';
export { type PendingTraceRow, pendingTraceInput, pendingTraceRow } from './pending-row.ts';
export {
  createPendingTraces,
  PENDING_TTL_MS,
  type PendingTraces,
  type PendingTracesOptions,
} from './service.ts';
export { deleteExpiredPendingTraceKeys, deleteExpiredPendingTraces, writePendingTrace } from './store.ts';
export { pendingTransactionJson } from './transaction-json.ts';
