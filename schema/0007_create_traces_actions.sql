-- 0007: traces and actions (shared/specs/v3-api.md §5.2 traces/actions/action_accounts, §6), the trace assembler's
-- own state, and the pending (emulated, not yet on chain) traces of messages sent through our APIs.
--
-- The assembler (src/index/traces/) runs over stored transactions in masterchain order, one block at a time, after
-- the block's core rows committed: it sets transactions.trace_id / messages.trace_id, keeps the internal messages
-- still in flight in trace_pending_edges and the watermark in trace_assembly, so its state lives in the database
-- (restarts and several workers resume from it) and the result does not depend on which worker indexed which block
-- first. The classifier (src/index/actions/) turns complete traces into actions rows, re-runnable over stored traces.

-- traces --------------------------------------------------------------------------------------------

CREATE TABLE traces (
  trace_id tonhash PRIMARY KEY,
  external_hash tonhash,
  external_hash_norm tonhash,
  mc_seqno_start integer NOT NULL,
  mc_seqno_end integer NOT NULL,
  start_lt bigint NOT NULL,
  start_utime integer NOT NULL,
  end_lt bigint NOT NULL,
  end_utime integer NOT NULL,
  state trace_state NOT NULL,
  pending_edges_ bigint NOT NULL,
  edges_ bigint NOT NULL,
  nodes_ bigint NOT NULL,
  classification_state trace_classification_state NOT NULL DEFAULT 'unclassified'
);
COMMENT ON TABLE traces IS 'One row per trace: the tree of transactions linked by internal messages, rooted at a transaction whose inbound message has no parent transaction (an external message, a system message from -1:000…0, no inbound message for tick-tock, or a parent never indexed: then broken). /api/v3/traces.';
COMMENT ON COLUMN traces.trace_id IS 'Hash of the root transaction, base64 (transactions.trace_id of every member).';
COMMENT ON COLUMN traces.external_hash IS 'Hash of the root transaction''s inbound message, base64; NULL when it has none (tick-tock).';
COMMENT ON COLUMN traces.external_hash_norm IS 'Normalized hash (TEP-467) of the root''s inbound message when it is an external-in message; else NULL.';
COMMENT ON COLUMN traces.mc_seqno_start IS 'Masterchain seqno that committed the trace''s first transaction.';
COMMENT ON COLUMN traces.mc_seqno_end IS 'Masterchain seqno that committed the trace''s newest transaction so far (its last one once complete).';
COMMENT ON COLUMN traces.start_lt IS 'Logical time of the first transaction.';
COMMENT ON COLUMN traces.start_utime IS 'Unix time of the first transaction.';
COMMENT ON COLUMN traces.end_lt IS 'Logical time of the newest transaction.';
COMMENT ON COLUMN traces.end_utime IS 'Unix time of the newest transaction.';
COMMENT ON COLUMN traces.state IS 'pending while internal messages of the trace are still in flight; complete when none is; broken when a member''s parent transaction was never indexed (indexing started mid-trace).';
COMMENT ON COLUMN traces.pending_edges_ IS 'Internal messages sent by members and not yet received by an indexed transaction.';
COMMENT ON COLUMN traces.edges_ IS 'Completed edges: internal messages received, plus the root''s external message and outbound external messages (logs).';
COMMENT ON COLUMN traces.nodes_ IS 'Transactions in the trace.';
COMMENT ON COLUMN traces.classification_state IS 'Action classifier state: unclassified until the classifier ran over the complete trace; ok; failed (a matcher threw: see the worker log); broken (the trace is broken and was classified from what is known).';

CREATE INDEX traces_index_1 ON traces (state);
CREATE INDEX trace_index_2a ON traces (mc_seqno_end);
CREATE INDEX traces_index_3 ON traces (end_lt DESC, trace_id DESC);
CREATE INDEX traces_index_4 ON traces (end_utime DESC, trace_id DESC);
CREATE INDEX traces_index_5 ON traces (external_hash);
CREATE INDEX traces_index_6 ON traces (external_hash_norm) WHERE external_hash_norm IS NOT NULL;
CREATE INDEX traces_index_7 ON traces (classification_state);
CREATE INDEX trace_unclassified_index ON traces (state, start_lt) INCLUDE (trace_id, nodes_) WHERE classification_state = 'unclassified';
CREATE INDEX traces_index_unclassified_final ON traces (mc_seqno_end) WHERE classification_state = 'unclassified' AND state <> 'pending';

-- assembler state ------------------------------------------------------------------------------------

CREATE TABLE trace_pending_edges (
  msg_hash tonhash PRIMARY KEY,
  trace_id tonhash NOT NULL,
  mc_seqno integer NOT NULL
);
COMMENT ON TABLE trace_pending_edges IS 'tongate addition: internal messages sent by an assembled transaction and not yet received by one: the assembler''s in-flight edges, deleted when the receiving transaction is assembled.';
COMMENT ON COLUMN trace_pending_edges.msg_hash IS 'Hash of the internal message, base64.';
COMMENT ON COLUMN trace_pending_edges.trace_id IS 'Trace of the transaction that sent it.';
COMMENT ON COLUMN trace_pending_edges.mc_seqno IS 'Masterchain seqno of the sending transaction.';

CREATE TABLE trace_assembly (
  id integer PRIMARY KEY CHECK (id = 1),
  first_mc_seqno integer NOT NULL,
  next_mc_seqno integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (first_mc_seqno <= next_mc_seqno)
);
COMMENT ON TABLE trace_assembly IS 'tongate addition: the trace assembler''s watermark (one row): masterchain blocks are assembled in order from first_mc_seqno; blocks below it are not assembled (their transactions keep trace_id NULL, and traces entering from before it are broken).';
COMMENT ON COLUMN trace_assembly.id IS 'Always 1.';
COMMENT ON COLUMN trace_assembly.first_mc_seqno IS 'First masterchain seqno assembled (where the walker started, or the lowest indexed block when assembly began).';
COMMENT ON COLUMN trace_assembly.next_mc_seqno IS 'Next masterchain seqno to assemble: every block below it (from first_mc_seqno) is assembled.';
COMMENT ON COLUMN trace_assembly.updated_at IS 'When the watermark last moved.';

-- actions --------------------------------------------------------------------------------------------

CREATE TABLE actions (
  trace_id tonhash NOT NULL,
  action_id tonhash NOT NULL,
  type varchar NOT NULL,
  start_lt bigint NOT NULL,
  end_lt bigint NOT NULL,
  start_utime bigint NOT NULL,
  end_utime bigint NOT NULL,
  tx_hashes tonhash[] NOT NULL,
  success boolean NOT NULL DEFAULT true,
  source tonaddr,
  source_secondary tonaddr,
  destination tonaddr,
  destination_secondary tonaddr,
  asset tonaddr,
  asset_secondary tonaddr,
  asset2 tonaddr,
  asset2_secondary tonaddr,
  opcode bigint,
  value numeric,
  amount numeric,
  details jsonb NOT NULL DEFAULT '{}',
  trace_end_lt bigint NOT NULL,
  trace_end_utime integer NOT NULL,
  trace_external_hash tonhash,
  trace_external_hash_norm tonhash,
  mc_seqno_end integer,
  trace_mc_seqno_end integer NOT NULL,
  parent_action_id varchar,
  ancestor_type varchar[] NOT NULL DEFAULT '{}',
  value_extra_currencies jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (trace_id, action_id)
);
COMMENT ON TABLE actions IS 'What a complete trace did, in toncenter''s action types (v3-api.md §6): one row per recognised action, plus the child actions of composite (non-v1) actions tagged with ancestor_type, so clients that do not know a type see its parts. /api/v3/actions.';
COMMENT ON COLUMN actions.trace_id IS 'The trace the action belongs to.';
COMMENT ON COLUMN actions.action_id IS 'base64 SHA-256 of (the key of the action''s first transaction, the one nearest the trace root) and the action type. The root''s key is its inbound message hash (its transaction hash for tick-tock), as toncenter''s; a transaction below it is keyed by SHA-256 of the root''s key and the created_lt offsets of the messages leading to it (not by its inbound message hash, which holds created_lt/created_at): stable across re-classification and from pending (emulated) to confirmed.';
COMMENT ON COLUMN actions.type IS 'Action type: ton_transfer, call_contract, contract_deploy, tick_tock, jetton_transfer, jetton_mint, jetton_burn, nft_transfer, nft_mint, change_dns, delete_dns, renew_dns, multisig_create_order, multisig_approve, multisig_execute, vesting_send_message, vesting_add_whitelist, election_deposit, election_recover, unknown, …';
COMMENT ON COLUMN actions.start_lt IS 'Smallest logical time of the action''s transactions.';
COMMENT ON COLUMN actions.end_lt IS 'Largest logical time of the action''s transactions.';
COMMENT ON COLUMN actions.start_utime IS 'Smallest unix time of the action''s transactions.';
COMMENT ON COLUMN actions.end_utime IS 'Largest unix time of the action''s transactions.';
COMMENT ON COLUMN actions.tx_hashes IS 'Hashes of the action''s transactions (including the initiating one), in logical-time order.';
COMMENT ON COLUMN actions.success IS 'False when the action failed (an aborted transaction of its own, a bounce), by the type''s rule.';
COMMENT ON COLUMN actions.source IS 'Generic participant column (toncenter''s): the initiator (sender, owner, stake holder…), per type; details holds the named fields.';
COMMENT ON COLUMN actions.source_secondary IS 'Generic: the initiator''s secondary account (its jetton wallet…), per type.';
COMMENT ON COLUMN actions.destination IS 'Generic: the receiver or target contract, per type.';
COMMENT ON COLUMN actions.destination_secondary IS 'Generic: the receiver''s secondary account (its jetton wallet, the order…), per type.';
COMMENT ON COLUMN actions.asset IS 'Generic: the asset (jetton master, NFT item, domain item), per type; NULL = TON.';
COMMENT ON COLUMN actions.asset_secondary IS 'Generic: a secondary asset (the NFT collection…), per type.';
COMMENT ON COLUMN actions.asset2 IS 'Generic: a second asset (swaps, liquidity), per type.';
COMMENT ON COLUMN actions.asset2_secondary IS 'Generic: a second asset''s secondary account, per type.';
COMMENT ON COLUMN actions.opcode IS 'The opcode of the message that made the action (call_contract), as an unsigned 32-bit number.';
COMMENT ON COLUMN actions.value IS 'TON value in nanotons (ton_transfer, call_contract…), exact decimal.';
COMMENT ON COLUMN actions.amount IS 'Asset amount in the asset''s smallest units (jetton amount, stake…), exact decimal.';
COMMENT ON COLUMN actions.details IS 'The action''s details object exactly as /api/v3/actions returns it for its type (v3-api.md §6.6); replaces toncenter''s per-type composite columns with one documented JSON value.';
COMMENT ON COLUMN actions.trace_end_lt IS 'traces.end_lt of its trace when classified.';
COMMENT ON COLUMN actions.trace_end_utime IS 'traces.end_utime of its trace when classified.';
COMMENT ON COLUMN actions.trace_external_hash IS 'traces.external_hash of its trace.';
COMMENT ON COLUMN actions.trace_external_hash_norm IS 'traces.external_hash_norm of its trace.';
COMMENT ON COLUMN actions.mc_seqno_end IS 'Masterchain seqno that committed the action''s last transaction.';
COMMENT ON COLUMN actions.trace_mc_seqno_end IS 'traces.mc_seqno_end of its trace: the masterchain block in which the trace completed.';
COMMENT ON COLUMN actions.parent_action_id IS 'For a child of a composite action: the enclosing action''s action_id; else NULL.';
COMMENT ON COLUMN actions.value_extra_currencies IS 'Extra currencies moved with value (id -> amount as a decimal string), {} when none.';
COMMENT ON COLUMN actions.ancestor_type IS 'Types of the enclosing actions (empty for top-level actions): a stored action is shown to a client iff its type is supported and none of these is (supported_action_types).';

CREATE INDEX actions_index_1 ON actions (trace_id, start_lt, end_lt);
CREATE INDEX actions_index_2 ON actions (action_id);
CREATE INDEX actions_index_3 ON actions (end_lt);
CREATE INDEX actions_index_4 ON actions (trace_end_lt, trace_id, end_lt, action_id);
CREATE INDEX actions_index_5 ON actions (trace_mc_seqno_end);
CREATE INDEX actions_index_6 ON actions (trace_end_utime, trace_id, end_utime, action_id);
CREATE INDEX actions_index_7 ON actions USING gin (tx_hashes);

CREATE TABLE action_accounts (
  action_id tonhash NOT NULL,
  trace_id tonhash NOT NULL,
  account tonaddr NOT NULL,
  trace_end_lt bigint NOT NULL,
  trace_end_utime integer NOT NULL,
  action_end_lt bigint NOT NULL,
  action_end_utime bigint NOT NULL,
  PRIMARY KEY (account, trace_end_lt, trace_id, action_end_lt, action_id)
);
COMMENT ON TABLE action_accounts IS 'Participants of each action (sources, destinations, their secondary accounts, the accounts of its transactions): /api/v3/actions?account= and include_accounts.';
COMMENT ON COLUMN action_accounts.action_id IS 'actions.action_id.';
COMMENT ON COLUMN action_accounts.trace_id IS 'actions.trace_id.';
COMMENT ON COLUMN action_accounts.account IS 'A participant, raw address.';
COMMENT ON COLUMN action_accounts.trace_end_lt IS 'actions.trace_end_lt (the sort key of /actions).';
COMMENT ON COLUMN action_accounts.trace_end_utime IS 'actions.trace_end_utime (the sort key of /actions with time bounds).';
COMMENT ON COLUMN action_accounts.action_end_lt IS 'actions.end_lt.';
COMMENT ON COLUMN action_accounts.action_end_utime IS 'actions.end_utime.';

CREATE INDEX action_accounts_index_1 ON action_accounts (action_id);
CREATE INDEX action_accounts_index_2 ON action_accounts (trace_id, action_id);
CREATE INDEX action_accounts_index_3 ON action_accounts (account, trace_end_utime, trace_id, action_end_utime, action_id);

-- pending (emulated) traces --------------------------------------------------------------------------

CREATE TABLE pending_traces (
  trace_key tonhash PRIMARY KEY,
  ext_msg_hash tonhash NOT NULL,
  accounts tonaddr[] NOT NULL,
  tx_in_msg_hashes tonhash[] NOT NULL,
  trace jsonb NOT NULL,
  actions jsonb NOT NULL DEFAULT '[]',
  emulated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
COMMENT ON TABLE pending_traces IS 'tongate addition: traces of external messages sent through our APIs (v2 sendBoc*, v3 /message), emulated on the latest states before they land: /api/v3/pendingTraces, pendingActions, pendingTransactions. A row is dropped when its trace is complete and classified in traces, or when it expires.';
COMMENT ON COLUMN pending_traces.trace_key IS 'Normalized hash (TEP-467) of the external message, base64: the key clients look traces up by.';
COMMENT ON COLUMN pending_traces.ext_msg_hash IS 'Hash of the external message as sent, base64.';
COMMENT ON COLUMN pending_traces.accounts IS 'Accounts of the emulated transactions and of the actions'' participants (account filters).';
COMMENT ON COLUMN pending_traces.tx_in_msg_hashes IS 'Inbound message hash of each emulated transaction: a transaction whose inbound message is already in messages is confirmed.';
COMMENT ON COLUMN pending_traces.trace IS 'The emulated trace as /api/v3/pendingTraces returns it (trace tree, transactions_order, transactions), without actions.';
COMMENT ON COLUMN pending_traces.actions IS 'The emulated trace''s actions as /api/v3/pendingActions returns them (with accounts), every stored action including composite children.';
COMMENT ON COLUMN pending_traces.emulated_at IS 'When the message was emulated.';
COMMENT ON COLUMN pending_traces.expires_at IS 'When the row is dropped if its trace has not landed.';

CREATE INDEX pending_traces_index_1 ON pending_traces USING gin (accounts);
CREATE INDEX pending_traces_index_2 ON pending_traces (ext_msg_hash);
CREATE INDEX pending_traces_index_3 ON pending_traces (expires_at);
