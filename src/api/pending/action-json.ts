// A classified action of an emulated trace as the JSON object pending_traces.actions holds: toncenter's Action
// (v3-api.md §4.9, keys in its order) with `finality: "pending"`, always with `accounts` (the participants, for
// account filters and include_accounts) and `ancestor_type` (for supported_action_types, §6.4). The endpoint that
// serves the row drops `ancestor_type`, and `accounts` unless asked for.
import type { Action, JsonValue } from '../../index/actions/index.ts';

export interface PendingActionJson {
  [key: string]: JsonValue;
  trace_id: string;
  action_id: string;
  type: string;
  accounts: string[];
  ancestor_type: string[];
  finality: 'pending';
}

export function pendingActionJson(a: Action): PendingActionJson {
  return {
    trace_id: a.traceId,
    action_id: a.actionId,
    start_lt: a.startLt.toString(),
    end_lt: a.endLt.toString(),
    start_utime: a.startUtime,
    end_utime: a.endUtime,
    trace_end_lt: a.traceEndLt.toString(),
    trace_end_utime: a.traceEndUtime,
    // Not in a masterchain block yet (toncenter's emulated actions report 0 too).
    trace_mc_seqno_end: 0,
    transactions: a.txHashes,
    success: a.success,
    type: a.type,
    details: a.details,
    trace_external_hash: a.traceExternalHash,
    trace_external_hash_norm: a.traceExternalHashNorm,
    accounts: a.accounts,
    ancestor_type: a.ancestorType,
    finality: 'pending',
  };
}
