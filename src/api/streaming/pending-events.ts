// Pending events from the traces the API emulates when a client sends a message (src/api/pending): the stored row,
// already in v3's shapes, as one pending trace event, with its address book and metadata.
import type { Queryable } from '../../db/index.ts';
import type { PendingTraceRow } from '../pending/index.ts';
import { buildAddressBook } from '../v3/address-book.ts';
import { buildMetadata } from '../v3/metadata.ts';
import {
  isStoredPendingAction,
  pendingActionAddresses,
  pendingActionJson,
  type StoredPendingAction,
} from '../v3/render/action.ts';
import { transactionAddresses } from '../v3/render/trace.ts';
import type { Json, StreamAction, TraceFeedEvent } from './events.ts';
import { streamTree, type TraceTreeNode } from './trace-tree.ts';

export async function pendingTraceEvent(
  row: PendingTraceRow,
  opts: { db: Queryable; testnet: boolean },
): Promise<TraceFeedEvent> {
  const map = (row.trace.transactions ?? {}) as Record<string, Json>;
  const order = (row.trace.transactions_order as string[] | undefined) ?? Object.keys(map);
  const transactions = order
    .map((h) => map[h])
    .filter((t): t is Json => t !== undefined)
    .map((t): Json => ({ ...t, finality: 'pending' }));
  const outCounts = new Map(transactions.map((t) => [String(t.hash), ((t.out_msgs as unknown[]) ?? []).length]));
  const actions: StreamAction[] = (row.actions as unknown[])
    .filter((a): a is StoredPendingAction => isStoredPendingAction(a))
    .map((a) => ({
      json: pendingActionJson(a, { accounts: a.accounts ?? [] }),
      ancestorType: a.ancestor_type ?? [],
      addresses: pendingActionAddresses(a),
    }));
  const addresses = [
    ...new Set([...transactions.flatMap(transactionAddresses), ...actions.flatMap((a) => a.addresses)]),
  ];
  const tree = row.trace.trace as TraceTreeNode | undefined;
  return {
    kind: 'trace',
    finality: 'pending',
    traceKey: row.traceKey,
    transactions,
    actions,
    tree: tree ? streamTree(tree, outCounts) : null,
    classified: true,
    addressBook: (await buildAddressBook(opts.db, addresses, { testnet: opts.testnet })) as unknown as Record<
      string,
      Json
    >,
    metadata: (await buildMetadata(opts.db, addresses)) as unknown as Record<string, Json>,
  };
}
