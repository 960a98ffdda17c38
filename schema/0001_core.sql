-- 0001_core: the toncenter v3 core tables (shared/specs/v3-api.md §5.1-5.3, toncenter schema 1.2.10):
-- blocks, shard_state, transactions, messages, message_contents, account_states, latest_account_states,
-- their types and the indexes behind every /api/v3 filter and sort order. Deliberate differences from
-- toncenter are listed in schema/README.md ("Differences from toncenter").
--
-- Partition readiness: every unique index of a large table contains the column a range partition would
-- use (transactions.lt, messages.tx_lt, shard_state.mc_seqno, blocks.seqno) or the hash a hash
-- partition would use (message_contents.hash, account_states.hash, latest_account_states.account).
-- schema/README.md ("Partitioning a mainnet-scale history") shows how an operator turns it on.

-- Types (§5.1) ------------------------------------------------------------------------------------

CREATE DOMAIN tonhash AS char(44) CHECK (VALUE ~ '^[A-Za-z0-9+/]{43}=$');
COMMENT ON DOMAIN tonhash IS 'A 256-bit hash as toncenter stores and returns it: standard base64 with padding, 44 characters (block, transaction, message, state, code and data hashes, trace ids).';

CREATE DOMAIN tonaddr AS varchar CHECK (VALUE ~ '^-?[0-9]{1,10}:[0-9A-F]{64}$');
COMMENT ON DOMAIN tonaddr IS 'An account address in raw form, <workchain>:<64 upper-case hex digits> (0:ED16…F8A7), the form /api/v3 filters on and returns.';

CREATE TYPE account_status_type AS ENUM ('uninit', 'frozen', 'active', 'nonexist');
COMMENT ON TYPE account_status_type IS 'AccountStatus (block.tlb): acc_state_uninit, acc_state_frozen, acc_state_active, acc_state_nonexist.';

CREATE TYPE descr_type AS ENUM (
  'ord', 'storage', 'tick_tock', 'split_prepare', 'split_install', 'merge_prepare', 'merge_install'
);
COMMENT ON TYPE descr_type IS 'TransactionDescr constructor (block.tlb): trans_ord, trans_storage, trans_tick_tock, trans_split_prepare, trans_split_install, trans_merge_prepare, trans_merge_install.';

CREATE TYPE msg_direction AS ENUM ('out', 'in');
COMMENT ON TYPE msg_direction IS 'Which side of a transaction a messages row describes: in = its inbound message, out = one of its outbound messages.';

CREATE TYPE bounce_type AS ENUM ('negfunds', 'nofunds', 'ok');
COMMENT ON TYPE bounce_type IS 'TrBouncePhase constructor (block.tlb): tr_phase_bounce_negfunds, tr_phase_bounce_nofunds, tr_phase_bounce_ok.';

CREATE TYPE skipped_reason_type AS ENUM ('no_state', 'bad_state', 'no_gas', 'suspended');
COMMENT ON TYPE skipped_reason_type IS 'ComputeSkipReason (block.tlb): cskip_no_state, cskip_bad_state, cskip_no_gas, cskip_suspended.';

CREATE TYPE status_change_type AS ENUM ('unchanged', 'frozen', 'deleted');
COMMENT ON TYPE status_change_type IS 'AccStatusChange (block.tlb): acst_unchanged, acst_frozen, acst_deleted.';

CREATE TYPE trace_state AS ENUM ('complete', 'pending', 'broken');
COMMENT ON TYPE trace_state IS 'State of an assembled trace (toncenter traces.state); used by the traces table of a later migration.';

CREATE TYPE trace_classification_state AS ENUM ('unclassified', 'failed', 'ok', 'broken');
COMMENT ON TYPE trace_classification_state IS 'Action-classifier state of a trace (toncenter traces.classification_state); used by a later migration.';

CREATE TYPE pool_type AS ENUM ('stable', 'volatile');
COMMENT ON TYPE pool_type IS 'DEX pool curve (toncenter dex_pools.pool_type); used by a later migration.';

CREATE TYPE dex_type AS ENUM ('dedust');
COMMENT ON TYPE dex_type IS 'DEX of a pool (toncenter dex_pools.dex); used by a later migration.';

CREATE TYPE blockid AS (workchain integer, shard bigint, seqno integer);
COMMENT ON TYPE blockid IS 'A block id (workchain, shard as signed 64-bit, seqno), as in blocks.prev_blocks.';

CREATE TYPE blockidext AS (workchain integer, shard bigint, seqno integer, root_hash tonhash, file_hash tonhash);
COMMENT ON TYPE blockidext IS 'A block id with its root and file hashes.';

-- blocks ------------------------------------------------------------------------------------------

CREATE TABLE blocks (
  workchain integer NOT NULL,
  shard bigint NOT NULL,
  seqno integer NOT NULL,
  root_hash tonhash NOT NULL,
  file_hash tonhash NOT NULL,
  mc_block_workchain integer,
  mc_block_shard bigint,
  mc_block_seqno integer,
  global_id integer NOT NULL,
  version integer NOT NULL,
  after_merge boolean NOT NULL,
  before_split boolean NOT NULL,
  after_split boolean NOT NULL,
  want_merge boolean NOT NULL,
  want_split boolean NOT NULL,
  key_block boolean NOT NULL,
  vert_seqno_incr boolean NOT NULL,
  flags integer NOT NULL,
  gen_utime bigint NOT NULL,
  start_lt bigint NOT NULL,
  end_lt bigint NOT NULL,
  validator_list_hash_short integer NOT NULL,
  gen_catchain_seqno integer NOT NULL,
  min_ref_mc_seqno integer NOT NULL,
  prev_key_block_seqno integer NOT NULL,
  vert_seqno integer NOT NULL,
  master_ref_seqno integer NOT NULL,
  rand_seed tonhash NOT NULL,
  created_by tonhash NOT NULL,
  tx_count integer NOT NULL,
  prev_blocks blockid[] NOT NULL,
  PRIMARY KEY (workchain, shard, seqno)
);
COMMENT ON TABLE blocks IS 'One row per indexed block, masterchain and shard (Block and its BlockInfo, block.tlb). Written with the masterchain block that commits it. Served by /blocks, /masterchainInfo, /masterchainBlockShards and block_ref of transactions.';
COMMENT ON COLUMN blocks.workchain IS 'Workchain id: -1 masterchain, 0 basechain.';
COMMENT ON COLUMN blocks.shard IS 'Shard id (ShardIdent prefix with its terminating 1 bit) as signed 64-bit: unsigned 0x8000000000000000 is stored as -9223372036854775808. The API prints it as unsigned upper-case hex.';
COMMENT ON COLUMN blocks.seqno IS 'Block sequence number in its shard chain (BlockInfo seq_no).';
COMMENT ON COLUMN blocks.root_hash IS 'Representation hash of the block''s root cell, base64.';
COMMENT ON COLUMN blocks.file_hash IS 'sha256 of the block''s serialized BoC, base64.';
COMMENT ON COLUMN blocks.mc_block_workchain IS 'Workchain of the masterchain block that committed this block: always -1.';
COMMENT ON COLUMN blocks.mc_block_shard IS 'Shard of the committing masterchain block: always -9223372036854775808 (0x8000000000000000).';
COMMENT ON COLUMN blocks.mc_block_seqno IS 'Seqno of the masterchain block that committed this block: the first one whose shard hashes include it; a masterchain block''s own seqno. /masterchainBlockShards and /blocks?mc_seqno= filter on it.';
COMMENT ON COLUMN blocks.global_id IS 'Network id (Block global_id): -239 mainnet, -3 testnet, other values for private networks.';
COMMENT ON COLUMN blocks.version IS 'BlockInfo version.';
COMMENT ON COLUMN blocks.after_merge IS 'BlockInfo after_merge: the block follows a merge of two shards.';
COMMENT ON COLUMN blocks.before_split IS 'BlockInfo before_split: the shard splits after this block.';
COMMENT ON COLUMN blocks.after_split IS 'BlockInfo after_split: the block is the first after a split.';
COMMENT ON COLUMN blocks.want_merge IS 'BlockInfo want_merge.';
COMMENT ON COLUMN blocks.want_split IS 'BlockInfo want_split.';
COMMENT ON COLUMN blocks.key_block IS 'BlockInfo key_block: a masterchain key block (config or validator set changed).';
COMMENT ON COLUMN blocks.vert_seqno_incr IS 'BlockInfo vert_seqno_incr.';
COMMENT ON COLUMN blocks.flags IS 'BlockInfo flags (bit 0: gen_software present).';
COMMENT ON COLUMN blocks.gen_utime IS 'BlockInfo gen_utime: generation time, unix seconds.';
COMMENT ON COLUMN blocks.start_lt IS 'BlockInfo start_lt: first logical time of the block. /blocks start_lt and end_lt both filter on it.';
COMMENT ON COLUMN blocks.end_lt IS 'BlockInfo end_lt: logical time after the block''s last transaction.';
COMMENT ON COLUMN blocks.validator_list_hash_short IS 'BlockInfo gen_validator_list_hash_short, a uint32 stored as its signed 32-bit two''s complement.';
COMMENT ON COLUMN blocks.gen_catchain_seqno IS 'BlockInfo gen_catchain_seqno.';
COMMENT ON COLUMN blocks.min_ref_mc_seqno IS 'BlockInfo min_ref_mc_seqno: the lowest masterchain seqno the block refers to.';
COMMENT ON COLUMN blocks.prev_key_block_seqno IS 'BlockInfo prev_key_block_seqno: the latest key block at generation time.';
COMMENT ON COLUMN blocks.vert_seqno IS 'BlockInfo vert_seq_no.';
COMMENT ON COLUMN blocks.master_ref_seqno IS 'Seqno of the masterchain block a shard block refers to (BlockInfo master_ref); 0 for masterchain blocks, which have none (as toncenter returns it).';
COMMENT ON COLUMN blocks.rand_seed IS 'BlockExtra rand_seed, base64.';
COMMENT ON COLUMN blocks.created_by IS 'BlockExtra created_by: public key of the collating validator, base64.';
COMMENT ON COLUMN blocks.tx_count IS 'Number of transactions in the block (its rows in transactions).';
COMMENT ON COLUMN blocks.prev_blocks IS 'The previous block ids (BlkPrevInfo): one, or two after a merge.';

CREATE INDEX blocks_index_1 ON blocks (gen_utime);
CREATE INDEX blocks_index_2 ON blocks (mc_block_seqno);
CREATE INDEX blocks_index_3 ON blocks (seqno) WHERE workchain = -1;
CREATE INDEX blocks_index_4 ON blocks (start_lt);
CREATE INDEX blocks_index_5 ON blocks (root_hash);
CREATE INDEX blocks_index_6 ON blocks (file_hash);
-- tongate: /blocks?workchain=0&seqno=N without a shard (the primary key cannot seek on seqno past shard).
CREATE INDEX blocks_index_workchain_seqno ON blocks (workchain, seqno);

-- shard_state -------------------------------------------------------------------------------------

CREATE TABLE shard_state (
  mc_seqno integer NOT NULL,
  workchain integer NOT NULL,
  shard bigint NOT NULL,
  seqno integer NOT NULL,
  PRIMARY KEY (mc_seqno, workchain, shard, seqno)
);
COMMENT ON TABLE shard_state IS 'Shard chain tips recorded by each masterchain block (its ShardHashes): what /masterchainBlockShardState returns, joined to blocks. Range-partitionable by mc_seqno.';
COMMENT ON COLUMN shard_state.mc_seqno IS 'The masterchain block whose state lists the tip.';
COMMENT ON COLUMN shard_state.workchain IS 'Workchain of the tip block.';
COMMENT ON COLUMN shard_state.shard IS 'Shard of the tip block, signed 64-bit as in blocks.shard.';
COMMENT ON COLUMN shard_state.seqno IS 'Seqno of the tip block.';

-- transactions ------------------------------------------------------------------------------------

CREATE TABLE transactions (
  account tonaddr NOT NULL,
  hash tonhash NOT NULL,
  lt bigint NOT NULL,
  block_workchain integer NOT NULL,
  block_shard bigint NOT NULL,
  block_seqno integer NOT NULL,
  mc_block_seqno integer NOT NULL,
  trace_id tonhash,
  prev_trans_hash tonhash NOT NULL,
  prev_trans_lt bigint NOT NULL,
  now bigint NOT NULL,
  orig_status account_status_type NOT NULL,
  end_status account_status_type NOT NULL,
  total_fees bigint NOT NULL,
  total_fees_extra_currencies jsonb NOT NULL DEFAULT '{}',
  account_state_hash_before tonhash NOT NULL,
  account_state_hash_after tonhash NOT NULL,
  descr descr_type NOT NULL,
  aborted boolean,
  destroyed boolean,
  credit_first boolean,
  is_tock boolean,
  installed boolean,
  storage_fees_collected bigint,
  storage_fees_due bigint,
  storage_status_change status_change_type,
  credit_due_fees_collected bigint,
  credit bigint,
  credit_extra_currencies jsonb,
  compute_skipped boolean,
  skipped_reason skipped_reason_type,
  compute_success boolean,
  compute_msg_state_used boolean,
  compute_account_activated boolean,
  compute_gas_fees bigint,
  compute_gas_used bigint,
  compute_gas_limit bigint,
  compute_gas_credit bigint,
  compute_mode smallint,
  compute_exit_code integer,
  compute_exit_arg integer,
  compute_vm_steps bigint,
  compute_vm_init_state_hash tonhash,
  compute_vm_final_state_hash tonhash,
  action_success boolean,
  action_valid boolean,
  action_no_funds boolean,
  action_status_change status_change_type,
  action_total_fwd_fees bigint,
  action_total_action_fees bigint,
  action_result_code integer,
  action_result_arg integer,
  action_tot_actions integer,
  action_spec_actions integer,
  action_skipped_actions integer,
  action_msgs_created integer,
  action_action_list_hash tonhash,
  action_tot_msg_size_cells bigint,
  action_tot_msg_size_bits bigint,
  bounce bounce_type,
  bounce_msg_size_cells bigint,
  bounce_msg_size_bits bigint,
  bounce_req_fwd_fees bigint,
  bounce_msg_fees bigint,
  bounce_fwd_fees bigint,
  split_info_cur_shard_pfx_len integer,
  split_info_acc_split_depth integer,
  split_info_this_addr tonaddr,
  split_info_sibling_addr tonaddr,
  PRIMARY KEY (hash, lt)
);
COMMENT ON TABLE transactions IS 'One row per transaction (Transaction and its TransactionDescr flattened into phase columns, block.tlb), written with the masterchain block that commits its block. A column is NULL when its phase or field is absent from the description. Range-partitionable by lt (in the primary key).';
COMMENT ON COLUMN transactions.account IS 'The account the transaction ran on (raw address).';
COMMENT ON COLUMN transactions.hash IS 'Representation hash of the transaction cell, base64.';
COMMENT ON COLUMN transactions.lt IS 'Transaction lt: logical time, unique per account, increasing along the chain; the range-partition key.';
COMMENT ON COLUMN transactions.block_workchain IS 'Workchain of the block holding the transaction.';
COMMENT ON COLUMN transactions.block_shard IS 'Shard of that block, signed 64-bit as in blocks.shard.';
COMMENT ON COLUMN transactions.block_seqno IS 'Seqno of that block.';
COMMENT ON COLUMN transactions.mc_block_seqno IS 'The masterchain block that committed the transaction''s block (blocks.mc_block_seqno): /transactions?mc_seqno= and /transactionsByMasterchainBlock.';
COMMENT ON COLUMN transactions.trace_id IS 'Hash of the root transaction of the trace this transaction belongs to, base64 (as toncenter''s trace assembler sets it); NULL while traces are not assembled.';
COMMENT ON COLUMN transactions.prev_trans_hash IS 'Transaction prev_trans_hash: the account''s previous transaction, base64 (all zero bytes for its first).';
COMMENT ON COLUMN transactions.prev_trans_lt IS 'Transaction prev_trans_lt (0 for the account''s first transaction).';
COMMENT ON COLUMN transactions.now IS 'Transaction now: when it ran, unix seconds.';
COMMENT ON COLUMN transactions.orig_status IS 'Transaction orig_status: account status before.';
COMMENT ON COLUMN transactions.end_status IS 'Transaction end_status: account status after.';
COMMENT ON COLUMN transactions.total_fees IS 'Transaction total_fees, nanotons (CurrencyCollection grams).';
COMMENT ON COLUMN transactions.total_fees_extra_currencies IS 'Extra currencies of total_fees as a JSON object {"<currency id>": "<amount>"}; {} when none.';
COMMENT ON COLUMN transactions.account_state_hash_before IS 'HASH_UPDATE old_hash of the transaction''s state_update: the account state before, a key of account_states.';
COMMENT ON COLUMN transactions.account_state_hash_after IS 'HASH_UPDATE new_hash: the account state after, a key of account_states.';
COMMENT ON COLUMN transactions.descr IS 'TransactionDescr constructor.';
COMMENT ON COLUMN transactions.aborted IS 'Description aborted flag (ord, tick_tock, split_prepare, merge_install).';
COMMENT ON COLUMN transactions.destroyed IS 'Description destroyed flag: the account was deleted.';
COMMENT ON COLUMN transactions.credit_first IS 'trans_ord credit_first: credit phase ran before storage (a non-bounceable inbound message).';
COMMENT ON COLUMN transactions.is_tock IS 'trans_tick_tock is_tock: true for tock, false for tick; NULL for other descriptions.';
COMMENT ON COLUMN transactions.installed IS 'trans_split_install / trans_merge_install installed flag.';
COMMENT ON COLUMN transactions.storage_fees_collected IS 'TrStoragePhase storage_fees_collected, nanotons.';
COMMENT ON COLUMN transactions.storage_fees_due IS 'TrStoragePhase storage_fees_due, nanotons (NULL when absent).';
COMMENT ON COLUMN transactions.storage_status_change IS 'TrStoragePhase status_change.';
COMMENT ON COLUMN transactions.credit_due_fees_collected IS 'TrCreditPhase due_fees_collected, nanotons (NULL when absent).';
COMMENT ON COLUMN transactions.credit IS 'TrCreditPhase credit, nanotons.';
COMMENT ON COLUMN transactions.credit_extra_currencies IS 'Extra currencies of the credit as a JSON object {"<currency id>": "<amount>"}.';
COMMENT ON COLUMN transactions.compute_skipped IS 'The compute phase is tr_phase_compute_skipped.';
COMMENT ON COLUMN transactions.skipped_reason IS 'tr_phase_compute_skipped reason.';
COMMENT ON COLUMN transactions.compute_success IS 'tr_phase_compute_vm success.';
COMMENT ON COLUMN transactions.compute_msg_state_used IS 'tr_phase_compute_vm msg_state_used: the inbound message''s StateInit was used.';
COMMENT ON COLUMN transactions.compute_account_activated IS 'tr_phase_compute_vm account_activated.';
COMMENT ON COLUMN transactions.compute_gas_fees IS 'tr_phase_compute_vm gas_fees, nanotons.';
COMMENT ON COLUMN transactions.compute_gas_used IS 'tr_phase_compute_vm gas_used.';
COMMENT ON COLUMN transactions.compute_gas_limit IS 'tr_phase_compute_vm gas_limit.';
COMMENT ON COLUMN transactions.compute_gas_credit IS 'tr_phase_compute_vm gas_credit (NULL when absent).';
COMMENT ON COLUMN transactions.compute_mode IS 'tr_phase_compute_vm mode.';
COMMENT ON COLUMN transactions.compute_exit_code IS 'tr_phase_compute_vm exit_code.';
COMMENT ON COLUMN transactions.compute_exit_arg IS 'tr_phase_compute_vm exit_arg (NULL when absent).';
COMMENT ON COLUMN transactions.compute_vm_steps IS 'tr_phase_compute_vm vm_steps.';
COMMENT ON COLUMN transactions.compute_vm_init_state_hash IS 'tr_phase_compute_vm vm_init_state_hash, base64.';
COMMENT ON COLUMN transactions.compute_vm_final_state_hash IS 'tr_phase_compute_vm vm_final_state_hash, base64.';
COMMENT ON COLUMN transactions.action_success IS 'TrActionPhase success.';
COMMENT ON COLUMN transactions.action_valid IS 'TrActionPhase valid.';
COMMENT ON COLUMN transactions.action_no_funds IS 'TrActionPhase no_funds.';
COMMENT ON COLUMN transactions.action_status_change IS 'TrActionPhase status_change.';
COMMENT ON COLUMN transactions.action_total_fwd_fees IS 'TrActionPhase total_fwd_fees, nanotons (NULL when absent).';
COMMENT ON COLUMN transactions.action_total_action_fees IS 'TrActionPhase total_action_fees, nanotons (NULL when absent).';
COMMENT ON COLUMN transactions.action_result_code IS 'TrActionPhase result_code.';
COMMENT ON COLUMN transactions.action_result_arg IS 'TrActionPhase result_arg (NULL when absent).';
COMMENT ON COLUMN transactions.action_tot_actions IS 'TrActionPhase tot_actions.';
COMMENT ON COLUMN transactions.action_spec_actions IS 'TrActionPhase spec_actions.';
COMMENT ON COLUMN transactions.action_skipped_actions IS 'TrActionPhase skipped_actions.';
COMMENT ON COLUMN transactions.action_msgs_created IS 'TrActionPhase msgs_created.';
COMMENT ON COLUMN transactions.action_action_list_hash IS 'TrActionPhase action_list_hash, base64.';
COMMENT ON COLUMN transactions.action_tot_msg_size_cells IS 'TrActionPhase tot_msg_size cells (StorageUsed).';
COMMENT ON COLUMN transactions.action_tot_msg_size_bits IS 'TrActionPhase tot_msg_size bits (StorageUsed).';
COMMENT ON COLUMN transactions.bounce IS 'TrBouncePhase constructor; NULL when there is no bounce phase.';
COMMENT ON COLUMN transactions.bounce_msg_size_cells IS 'Bounce phase msg_size cells (nofunds, ok).';
COMMENT ON COLUMN transactions.bounce_msg_size_bits IS 'Bounce phase msg_size bits (nofunds, ok).';
COMMENT ON COLUMN transactions.bounce_req_fwd_fees IS 'tr_phase_bounce_nofunds req_fwd_fees, nanotons.';
COMMENT ON COLUMN transactions.bounce_msg_fees IS 'tr_phase_bounce_ok msg_fees, nanotons.';
COMMENT ON COLUMN transactions.bounce_fwd_fees IS 'tr_phase_bounce_ok fwd_fees, nanotons.';
COMMENT ON COLUMN transactions.split_info_cur_shard_pfx_len IS 'SplitMergeInfo cur_shard_pfx_len (split and merge descriptions).';
COMMENT ON COLUMN transactions.split_info_acc_split_depth IS 'SplitMergeInfo acc_split_depth.';
COMMENT ON COLUMN transactions.split_info_this_addr IS 'SplitMergeInfo this_addr, raw address form.';
COMMENT ON COLUMN transactions.split_info_sibling_addr IS 'SplitMergeInfo sibling_addr, raw address form.';

CREATE INDEX transactions_index_1 ON transactions (block_workchain, block_shard, block_seqno);
CREATE INDEX transactions_index_2 ON transactions (lt);
CREATE INDEX transactions_index_3 ON transactions (now, lt);
CREATE INDEX transactions_index_4 ON transactions (account, lt);
CREATE INDEX transactions_index_5 ON transactions (account, now, lt);
-- toncenter's transactions_index_6 (hash) is the primary key's leading column here: not repeated.
CREATE INDEX transactions_index_7 ON transactions (trace_id, lt);
CREATE INDEX transactions_index_8 ON transactions (mc_block_seqno, lt);
CREATE INDEX transactions_index_9 ON transactions (account, trace_id);

-- messages ----------------------------------------------------------------------------------------

CREATE TABLE messages (
  tx_hash tonhash NOT NULL,
  tx_lt bigint NOT NULL,
  mc_seqno integer NOT NULL,
  msg_hash tonhash NOT NULL,
  msg_hash_norm tonhash,
  direction msg_direction NOT NULL,
  trace_id tonhash,
  source tonaddr,
  destination tonaddr,
  value bigint,
  value_extra_currencies jsonb,
  fwd_fee bigint,
  ihr_fee bigint,
  extra_flags numeric,
  created_lt bigint,
  created_at bigint,
  opcode integer,
  ihr_disabled boolean,
  bounce boolean,
  bounced boolean,
  import_fee bigint,
  body_hash tonhash,
  init_state_hash tonhash,
  PRIMARY KEY (tx_hash, tx_lt, msg_hash, direction)
);
COMMENT ON TABLE messages IS 'One row per (transaction, direction, message): a transaction''s inbound message (in) and each outbound one (out). An internal message therefore has two rows, out on the sender''s transaction and in on the receiver''s; /messages de-duplicates them by msg_hash. Bodies and StateInits live in message_contents. Range-partitionable by tx_lt (in the primary key).';
COMMENT ON COLUMN messages.tx_hash IS 'Hash of the transaction this row belongs to (transactions.hash).';
COMMENT ON COLUMN messages.tx_lt IS 'lt of that transaction (transactions.lt); the range-partition key.';
COMMENT ON COLUMN messages.mc_seqno IS 'The masterchain block that committed that transaction (transactions.mc_block_seqno).';
COMMENT ON COLUMN messages.msg_hash IS 'Representation hash of the message cell, base64.';
COMMENT ON COLUMN messages.msg_hash_norm IS 'For external-in messages the normalized hash (TEP-467: the message re-serialized with src addr_none, import_fee 0, no StateInit and the body in a reference) that wallets and TON Connect report; NULL otherwise. msg_hash filters match either hash.';
COMMENT ON COLUMN messages.direction IS 'in: the transaction''s inbound message; out: one of its outbound messages.';
COMMENT ON COLUMN messages.trace_id IS 'trace_id of the transaction (transactions.trace_id); NULL while traces are not assembled.';
COMMENT ON COLUMN messages.source IS 'Sender, raw address; NULL for external-in messages.';
COMMENT ON COLUMN messages.destination IS 'Receiver, raw address; NULL for external-out messages (logs).';
COMMENT ON COLUMN messages.value IS 'int_msg_info value, nanotons; NULL for external messages.';
COMMENT ON COLUMN messages.value_extra_currencies IS 'Extra currencies carried, as a JSON object {"<currency id>": "<amount>"}; NULL for external messages.';
COMMENT ON COLUMN messages.fwd_fee IS 'int_msg_info fwd_fee, nanotons; NULL for external messages.';
COMMENT ON COLUMN messages.ihr_fee IS 'int_msg_info ihr_fee, nanotons; NULL for external messages.';
COMMENT ON COLUMN messages.extra_flags IS 'int_msg_info extra_flags (a VarUInteger 16 kept as an exact decimal); NULL when the message has none.';
COMMENT ON COLUMN messages.created_lt IS 'created_lt of an internal or external-out message; NULL for external-in.';
COMMENT ON COLUMN messages.created_at IS 'created_at (unix seconds) of an internal or external-out message; NULL for external-in.';
COMMENT ON COLUMN messages.opcode IS 'First 32 bits of the body as a signed 32-bit integer when the body has at least 32 bits; NULL otherwise. The API prints it as "0x%08x".';
COMMENT ON COLUMN messages.ihr_disabled IS 'int_msg_info ihr_disabled; NULL for external messages.';
COMMENT ON COLUMN messages.bounce IS 'int_msg_info bounce: the message bounces if its transaction fails; NULL for external messages.';
COMMENT ON COLUMN messages.bounced IS 'int_msg_info bounced: the message is itself a bounce; NULL for external messages.';
COMMENT ON COLUMN messages.import_fee IS 'ext_in_msg_info import_fee, nanotons; NULL for other messages.';
COMMENT ON COLUMN messages.body_hash IS 'Hash of the body cell (message_contents.hash).';
COMMENT ON COLUMN messages.init_state_hash IS 'Hash of the StateInit cell sent with the message (message_contents.hash); NULL when none.';

CREATE INDEX messages_index_1 ON messages (msg_hash);
CREATE INDEX messages_index_2 ON messages (source, created_lt);
CREATE INDEX messages_index_3 ON messages (destination, created_lt);
CREATE INDEX messages_index_4 ON messages (body_hash);
CREATE INDEX messages_index_5 ON messages (trace_id, tx_lt);
CREATE INDEX messages_index_6 ON messages (opcode, created_lt);
CREATE INDEX messages_index_7 ON messages (created_lt, msg_hash);
CREATE INDEX messages_index_8 ON messages (created_at, msg_hash);
CREATE INDEX messages_index_9 ON messages (msg_hash_norm) WHERE msg_hash_norm IS NOT NULL;

-- message_contents --------------------------------------------------------------------------------

CREATE TABLE message_contents (
  hash tonhash PRIMARY KEY,
  body text NOT NULL
);
COMMENT ON TABLE message_contents IS 'Message bodies and StateInits, one row per distinct cell (content-addressed, shared by every message that carries it; written insert-if-absent). Hash-partitionable by hash.';
COMMENT ON COLUMN message_contents.hash IS 'Representation hash of the cell, base64 (messages.body_hash, messages.init_state_hash).';
COMMENT ON COLUMN message_contents.body IS 'The cell as a base64 BoC.';

-- account_states ----------------------------------------------------------------------------------

CREATE TABLE account_states (
  hash tonhash PRIMARY KEY,
  account tonaddr NOT NULL,
  balance bigint NOT NULL,
  balance_extra_currencies jsonb NOT NULL DEFAULT '{}',
  account_status account_status_type NOT NULL,
  frozen_hash tonhash,
  data_hash tonhash,
  code_hash tonhash
);
COMMENT ON TABLE account_states IS 'Account states referenced by transactions (account_state_hash_before/after), one row per distinct state hash; hashes and balance only, no BoCs. Content-addressed and written insert-if-absent. Hash-partitionable by hash.';
COMMENT ON COLUMN account_states.hash IS 'Hash of the account state (the Account cell), base64.';
COMMENT ON COLUMN account_states.account IS 'The account, raw address.';
COMMENT ON COLUMN account_states.balance IS 'Balance in this state, nanotons.';
COMMENT ON COLUMN account_states.balance_extra_currencies IS 'Extra-currency balances as a JSON object {"<currency id>": "<amount>"}; {} when none.';
COMMENT ON COLUMN account_states.account_status IS 'Status in this state.';
COMMENT ON COLUMN account_states.frozen_hash IS 'For a frozen account, the state hash it was frozen with (account_frozen state_hash), base64; NULL otherwise.';
COMMENT ON COLUMN account_states.data_hash IS 'Hash of the data cell of an active account, base64; NULL otherwise.';
COMMENT ON COLUMN account_states.code_hash IS 'Hash of the code cell of an active account, base64; NULL otherwise.';

-- latest_account_states ---------------------------------------------------------------------------

CREATE TABLE latest_account_states (
  id bigserial NOT NULL,
  account tonaddr PRIMARY KEY,
  account_friendly varchar,
  hash tonhash NOT NULL,
  balance bigint NOT NULL,
  balance_extra_currencies jsonb NOT NULL DEFAULT '{}',
  account_status account_status_type NOT NULL,
  timestamp bigint NOT NULL,
  last_trans_hash tonhash NOT NULL,
  last_trans_lt bigint NOT NULL,
  frozen_hash tonhash,
  data_hash tonhash,
  code_hash tonhash,
  data_boc text,
  code_boc text
) WITH (autovacuum_vacuum_scale_factor = 0.03);
COMMENT ON TABLE latest_account_states IS 'The newest indexed state of every account, with its code and data BoCs: /accountStates, /walletStates, /addressBook, /topAccountsByBalance, /addressInformation. Updated in place: a writer replaces a row only with a state of higher last_trans_lt, so masterchain blocks committed out of order leave the newest state.';
COMMENT ON COLUMN latest_account_states.id IS 'Row number from a sequence, for stable scans and paging.';
COMMENT ON COLUMN latest_account_states.account IS 'The account, raw address.';
COMMENT ON COLUMN latest_account_states.account_friendly IS 'User-friendly (base64url) form of the address when the writer computed it; NULL otherwise. The API derives address_book user_friendly itself.';
COMMENT ON COLUMN latest_account_states.hash IS 'Hash of the account state (the Account cell), base64.';
COMMENT ON COLUMN latest_account_states.balance IS 'Balance, nanotons.';
COMMENT ON COLUMN latest_account_states.balance_extra_currencies IS 'Extra-currency balances as a JSON object {"<currency id>": "<amount>"}; {} when none.';
COMMENT ON COLUMN latest_account_states.account_status IS 'Account status.';
COMMENT ON COLUMN latest_account_states.timestamp IS 'now of the account''s last transaction, unix seconds.';
COMMENT ON COLUMN latest_account_states.last_trans_hash IS 'Hash of the account''s last transaction, base64.';
COMMENT ON COLUMN latest_account_states.last_trans_lt IS 'lt of the account''s last transaction; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN latest_account_states.frozen_hash IS 'For a frozen account, the state hash it was frozen with, base64; NULL otherwise.';
COMMENT ON COLUMN latest_account_states.data_hash IS 'Hash of the data cell, base64; NULL unless active.';
COMMENT ON COLUMN latest_account_states.code_hash IS 'Hash of the code cell, base64; NULL unless active.';
COMMENT ON COLUMN latest_account_states.data_boc IS 'The data cell as a base64 BoC; NULL unless active (or when the writer skipped a very deep data cell).';
COMMENT ON COLUMN latest_account_states.code_boc IS 'The code cell as a base64 BoC; NULL unless active.';

CREATE INDEX latest_account_states_index_1 ON latest_account_states (balance DESC) INCLUDE (account);
CREATE INDEX latest_account_states_address_book_index ON latest_account_states (account)
  INCLUDE (account_friendly, code_hash, account_status);
CREATE INDEX latest_account_states_index_2 ON latest_account_states (id);
