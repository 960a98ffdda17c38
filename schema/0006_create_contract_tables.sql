-- 0006: the decoded-contract tables of toncenter v3 (shared/specs/v3-api.md §5.2-5.3, schema 1.2.10): get-method
-- ids per code, Jetton masters and wallets with their transfers and burns, NFT collections and items with their
-- transfers, DNS entries, multisig v2 wallets and orders, vesting contracts and whitelists, fetched off-chain
-- metadata; plus tongate's jetton_mints. Filled by the contract decoders (issue 9) in the same transaction as the
-- block that caused them, and rebuilt from stored rows by `tongate index rederive`. Deliberate differences from
-- toncenter are listed in schema/README.md ("Differences from toncenter") and test/db/schema.test.ts.
--
-- Latest-state tables (one row per contract) carry last_transaction_lt: the writer replaces a row only when it
-- grows, so masterchain blocks committed out of order leave the newest state. Event tables (one row per
-- message a contract received) are keyed by the receiving transaction and carry mc_seqno, by which a re-run
-- or a re-derive deletes a block's rows first.

-- contract_methods --------------------------------------------------------------------------------

CREATE TABLE contract_methods (
  code_hash tonhash PRIMARY KEY,
  methods bigint[]
);
COMMENT ON TABLE contract_methods IS 'Get-method ids present in a contract code (the keys of its method dictionary), one row per distinct code; content-addressed and written insert-if-absent. Used for interface detection by method set (address_book interfaces).';
COMMENT ON COLUMN contract_methods.code_hash IS 'Representation hash of the code cell, base64 (latest_account_states.code_hash).';
COMMENT ON COLUMN contract_methods.methods IS 'The get-method ids (crc16(name) | 0x10000, and 0 for main) the code''s method dictionary holds; NULL when the code has no dictionary we can read.';

-- jetton_masters ----------------------------------------------------------------------------------

CREATE TABLE jetton_masters (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  total_supply numeric,
  mintable boolean,
  admin_address tonaddr,
  jetton_content jsonb,
  jetton_wallet_code_hash tonhash,
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL
);
COMMENT ON TABLE jetton_masters IS 'One row per detected TEP-74 jetton master (get_jetton_data answers with the exact types), its newest decoded state: /jetton/masters. Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN jetton_masters.id IS 'Row number from a sequence: the default order of /jetton/masters and stable paging.';
COMMENT ON COLUMN jetton_masters.address IS 'The master contract, raw address.';
COMMENT ON COLUMN jetton_masters.total_supply IS 'get_jetton_data total_supply, in the jetton''s smallest units (exact decimal).';
COMMENT ON COLUMN jetton_masters.mintable IS 'get_jetton_data mintable flag (-1 true, 0 false).';
COMMENT ON COLUMN jetton_masters.admin_address IS 'get_jetton_data admin_address, raw address; NULL when addr_none.';
COMMENT ON COLUMN jetton_masters.jetton_content IS 'get_jetton_data content decoded as TEP-64: off-chain {"uri": …}; on-chain (or semi-chain) the decoded string keys (uri, name, description, image, image_data, symbol, decimals, amount_style, render_type); NULL when undecodable.';
COMMENT ON COLUMN jetton_masters.jetton_wallet_code_hash IS 'Hash of the jetton_wallet_code cell get_jetton_data returns, base64.';
COMMENT ON COLUMN jetton_masters.last_transaction_lt IS 'lt of the master''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN jetton_masters.code_hash IS 'Hash of the master''s code cell in that state, base64.';
COMMENT ON COLUMN jetton_masters.data_hash IS 'Hash of the master''s data cell in that state, base64.';

CREATE INDEX jetton_masters_index_1 ON jetton_masters (admin_address, id);
CREATE INDEX jetton_masters_index_2 ON jetton_masters (id);

-- mintless_jetton_masters -------------------------------------------------------------------------

CREATE TABLE mintless_jetton_masters (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  is_indexed boolean,
  custom_payload_api_uri varchar[]
);
COMMENT ON TABLE mintless_jetton_masters IS 'Jetton masters of mintless (airdrop, Merkle-proof) jettons whose claim API is known: where jetton_wallets.mintless_* values come from. Kept for toncenter compatibility; tongate does not fill it yet.';
COMMENT ON COLUMN mintless_jetton_masters.id IS 'Row number from a sequence.';
COMMENT ON COLUMN mintless_jetton_masters.address IS 'The jetton master, raw address.';
COMMENT ON COLUMN mintless_jetton_masters.is_indexed IS 'Whether the airdrop list behind the claim API has been read into jetton_wallets.';
COMMENT ON COLUMN mintless_jetton_masters.custom_payload_api_uri IS 'Base URIs of the claim API (from the master''s content custom_payload_api_uri), as given.';

-- jetton_wallets ----------------------------------------------------------------------------------

CREATE TABLE jetton_wallets (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  balance numeric,
  owner tonaddr,
  jetton tonaddr,
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL,
  mintless_is_claimed boolean,
  mintless_amount numeric,
  mintless_start_from bigint,
  mintless_expire_at bigint
);
COMMENT ON TABLE jetton_wallets IS 'One row per detected TEP-74 jetton wallet (get_wallet_data with exact types, confirmed by its master''s get_wallet_address), its newest decoded state: /jetton/wallets. Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN jetton_wallets.id IS 'Row number from a sequence: the default order of /jetton/wallets and stable paging.';
COMMENT ON COLUMN jetton_wallets.address IS 'The wallet contract, raw address.';
COMMENT ON COLUMN jetton_wallets.balance IS 'get_wallet_data balance, in the jetton''s smallest units (exact decimal).';
COMMENT ON COLUMN jetton_wallets.owner IS 'get_wallet_data owner, raw address.';
COMMENT ON COLUMN jetton_wallets.jetton IS 'get_wallet_data jetton (the master), raw address.';
COMMENT ON COLUMN jetton_wallets.last_transaction_lt IS 'lt of the wallet''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN jetton_wallets.code_hash IS 'Hash of the wallet''s code cell in that state, base64 (of the library cell itself for library-code wallets).';
COMMENT ON COLUMN jetton_wallets.data_hash IS 'Hash of the wallet''s data cell in that state, base64.';
COMMENT ON COLUMN jetton_wallets.mintless_is_claimed IS 'Mintless wallets: is_claimed(); NULL for wallets without that getter.';
COMMENT ON COLUMN jetton_wallets.mintless_amount IS 'Mintless wallets: the airdrop amount not yet claimed, when known; NULL otherwise.';
COMMENT ON COLUMN jetton_wallets.mintless_start_from IS 'Mintless wallets: unix time the airdrop can be claimed from, when known.';
COMMENT ON COLUMN jetton_wallets.mintless_expire_at IS 'Mintless wallets: unix time the airdrop expires, when known.';

CREATE INDEX jetton_wallets_index_1 ON jetton_wallets (owner, id);
CREATE INDEX jetton_wallets_index_2 ON jetton_wallets (jetton, id);
CREATE INDEX jetton_wallets_index_3 ON jetton_wallets (id);
CREATE INDEX jetton_wallets_index_4 ON jetton_wallets (jetton, balance DESC);
CREATE INDEX jetton_wallets_index_5 ON jetton_wallets (owner, balance DESC);

-- jetton_transfers --------------------------------------------------------------------------------

CREATE TABLE jetton_transfers (
  tx_hash tonhash NOT NULL,
  tx_lt bigint NOT NULL,
  tx_now bigint NOT NULL,
  tx_aborted boolean NOT NULL,
  mc_seqno integer NOT NULL,
  query_id numeric,
  amount numeric,
  source tonaddr,
  destination tonaddr,
  jetton_wallet_address tonaddr,
  jetton_master_address tonaddr,
  response_destination tonaddr,
  custom_payload text,
  forward_ton_amount numeric,
  forward_payload text,
  trace_id tonhash,
  PRIMARY KEY (tx_hash, tx_lt)
);
COMMENT ON TABLE jetton_transfers IS 'One row per transfer#0f8a7ea5 received by a detected jetton wallet (the sender''s wallet), aborted transactions included and marked: /jetton/transfers (which hides aborted ones). Written with the masterchain block of the transaction; a re-run deletes the block''s rows by mc_seqno first.';
COMMENT ON COLUMN jetton_transfers.tx_hash IS 'Hash of the transaction in which the sender''s wallet received the transfer, base64 (transactions.hash).';
COMMENT ON COLUMN jetton_transfers.tx_lt IS 'lt of that transaction.';
COMMENT ON COLUMN jetton_transfers.tx_now IS 'now of that transaction, unix seconds.';
COMMENT ON COLUMN jetton_transfers.tx_aborted IS 'The transaction was aborted (the transfer did not happen).';
COMMENT ON COLUMN jetton_transfers.mc_seqno IS 'The masterchain block that committed the transaction (transactions.mc_block_seqno).';
COMMENT ON COLUMN jetton_transfers.query_id IS 'query_id of the body (uint64, exact decimal).';
COMMENT ON COLUMN jetton_transfers.amount IS 'amount of the body, in the jetton''s smallest units (exact decimal).';
COMMENT ON COLUMN jetton_transfers.source IS 'The sender: source of the inbound message (the wallet''s owner), raw address.';
COMMENT ON COLUMN jetton_transfers.destination IS 'destination of the body: the receiving owner (not their jetton wallet), raw address.';
COMMENT ON COLUMN jetton_transfers.jetton_wallet_address IS 'The sender''s jetton wallet (the transaction''s account), raw address.';
COMMENT ON COLUMN jetton_transfers.jetton_master_address IS 'The wallet''s jetton master (from its get_wallet_data), raw address.';
COMMENT ON COLUMN jetton_transfers.response_destination IS 'response_destination of the body, raw address; NULL when addr_none.';
COMMENT ON COLUMN jetton_transfers.custom_payload IS 'custom_payload cell of the body as a base64 BoC; NULL when absent.';
COMMENT ON COLUMN jetton_transfers.forward_ton_amount IS 'forward_ton_amount of the body, nanotons (exact decimal).';
COMMENT ON COLUMN jetton_transfers.forward_payload IS 'forward_payload of the body (inline or in its reference) as a base64 BoC; NULL when empty.';
COMMENT ON COLUMN jetton_transfers.trace_id IS 'trace_id of the transaction (transactions.trace_id); NULL while traces are not assembled.';

CREATE INDEX jetton_transfers_index_1 ON jetton_transfers (source, tx_now);
CREATE INDEX jetton_transfers_index_2 ON jetton_transfers (source, tx_lt);
CREATE INDEX jetton_transfers_index_3 ON jetton_transfers (destination, tx_lt);
CREATE INDEX jetton_transfers_index_4 ON jetton_transfers (destination, tx_now);
-- toncenter numbers these 1-4 and 6-10 (there is no jetton_transfers_index_5).
CREATE INDEX jetton_transfers_index_6 ON jetton_transfers (jetton_wallet_address, tx_lt);
CREATE INDEX jetton_transfers_index_7 ON jetton_transfers (jetton_master_address, tx_now);
CREATE INDEX jetton_transfers_index_8 ON jetton_transfers (jetton_master_address, tx_lt);
CREATE INDEX jetton_transfers_index_9 ON jetton_transfers (tx_now, tx_lt);
CREATE INDEX jetton_transfers_index_10 ON jetton_transfers (tx_lt);
-- tongate: a re-run or re-derive deletes a masterchain block's rows by mc_seqno.
CREATE INDEX jetton_transfers_index_mc_seqno ON jetton_transfers (mc_seqno);

-- jetton_burns ------------------------------------------------------------------------------------

CREATE TABLE jetton_burns (
  tx_hash tonhash NOT NULL,
  tx_lt bigint NOT NULL,
  tx_now bigint NOT NULL,
  tx_aborted boolean NOT NULL,
  mc_seqno integer NOT NULL,
  query_id numeric,
  owner tonaddr,
  jetton_wallet_address tonaddr,
  jetton_master_address tonaddr,
  amount numeric,
  response_destination tonaddr,
  custom_payload text,
  trace_id tonhash,
  PRIMARY KEY (tx_hash, tx_lt)
);
COMMENT ON TABLE jetton_burns IS 'One row per burn#595f07bc received by a detected jetton wallet, aborted transactions included and marked: /jetton/burns. Written with the masterchain block of the transaction; a re-run deletes the block''s rows by mc_seqno first.';
COMMENT ON COLUMN jetton_burns.tx_hash IS 'Hash of the transaction in which the wallet received the burn, base64.';
COMMENT ON COLUMN jetton_burns.tx_lt IS 'lt of that transaction.';
COMMENT ON COLUMN jetton_burns.tx_now IS 'now of that transaction, unix seconds.';
COMMENT ON COLUMN jetton_burns.tx_aborted IS 'The transaction was aborted (nothing was burned).';
COMMENT ON COLUMN jetton_burns.mc_seqno IS 'The masterchain block that committed the transaction.';
COMMENT ON COLUMN jetton_burns.query_id IS 'query_id of the body (uint64, exact decimal).';
COMMENT ON COLUMN jetton_burns.owner IS 'The burner: source of the inbound message (the wallet''s owner), raw address.';
COMMENT ON COLUMN jetton_burns.jetton_wallet_address IS 'The jetton wallet that received the burn (the transaction''s account), raw address.';
COMMENT ON COLUMN jetton_burns.jetton_master_address IS 'The wallet''s jetton master, raw address.';
COMMENT ON COLUMN jetton_burns.amount IS 'amount of the body, in the jetton''s smallest units (exact decimal).';
COMMENT ON COLUMN jetton_burns.response_destination IS 'response_destination of the body, raw address; NULL when addr_none.';
COMMENT ON COLUMN jetton_burns.custom_payload IS 'custom_payload cell of the body as a base64 BoC; NULL when absent.';
COMMENT ON COLUMN jetton_burns.trace_id IS 'trace_id of the transaction; NULL while traces are not assembled.';

CREATE INDEX jetton_burns_index_1 ON jetton_burns (owner, tx_now, tx_lt);
CREATE INDEX jetton_burns_index_2 ON jetton_burns (owner, tx_lt);
CREATE INDEX jetton_burns_index_3 ON jetton_burns (jetton_wallet_address, tx_now, tx_lt);
CREATE INDEX jetton_burns_index_4 ON jetton_burns (jetton_wallet_address, tx_lt);
CREATE INDEX jetton_burns_index_5 ON jetton_burns (jetton_master_address, tx_now, tx_lt);
CREATE INDEX jetton_burns_index_6 ON jetton_burns (jetton_master_address, tx_lt);
CREATE INDEX jetton_burns_index_7 ON jetton_burns (tx_now, tx_lt);
CREATE INDEX jetton_burns_index_8 ON jetton_burns (tx_lt);
-- tongate: a re-run or re-derive deletes a masterchain block's rows by mc_seqno.
CREATE INDEX jetton_burns_index_mc_seqno ON jetton_burns (mc_seqno);

-- jetton_mints (tongate) --------------------------------------------------------------------------

CREATE TABLE jetton_mints (
  tx_hash tonhash NOT NULL,
  tx_lt bigint NOT NULL,
  tx_now bigint NOT NULL,
  tx_aborted boolean NOT NULL,
  mc_seqno integer NOT NULL,
  query_id numeric,
  amount numeric,
  minter tonaddr,
  from_address tonaddr,
  destination tonaddr,
  jetton_wallet_address tonaddr,
  jetton_master_address tonaddr,
  response_destination tonaddr,
  forward_ton_amount numeric,
  trace_id tonhash,
  PRIMARY KEY (tx_hash, tx_lt)
);
COMMENT ON TABLE jetton_mints IS 'tongate addition (toncenter has no such table): one row per internal_transfer#178d4519 a detected jetton wallet received from its own master, i.e. a mint (governed jettons'' forced transfers from the master included), aborted transactions included and marked. Same layout conventions as jetton_transfers. Written with the masterchain block of the transaction; a re-run deletes the block''s rows by mc_seqno first.';
COMMENT ON COLUMN jetton_mints.tx_hash IS 'Hash of the transaction in which the wallet received the internal_transfer, base64.';
COMMENT ON COLUMN jetton_mints.tx_lt IS 'lt of that transaction.';
COMMENT ON COLUMN jetton_mints.tx_now IS 'now of that transaction, unix seconds.';
COMMENT ON COLUMN jetton_mints.tx_aborted IS 'The transaction was aborted (nothing was credited).';
COMMENT ON COLUMN jetton_mints.mc_seqno IS 'The masterchain block that committed the transaction.';
COMMENT ON COLUMN jetton_mints.query_id IS 'query_id of the body (uint64, exact decimal).';
COMMENT ON COLUMN jetton_mints.amount IS 'amount of the body: jettons credited, in smallest units (exact decimal).';
COMMENT ON COLUMN jetton_mints.minter IS 'Source of the inbound message: the jetton master, raw address.';
COMMENT ON COLUMN jetton_mints.from_address IS 'from of the body (who asked the master to mint, often its admin), raw address; NULL when addr_none.';
COMMENT ON COLUMN jetton_mints.destination IS 'The receiving wallet''s owner (its get_wallet_data owner), raw address.';
COMMENT ON COLUMN jetton_mints.jetton_wallet_address IS 'The receiving jetton wallet (the transaction''s account), raw address.';
COMMENT ON COLUMN jetton_mints.jetton_master_address IS 'The wallet''s jetton master (its get_wallet_data jetton), raw address.';
COMMENT ON COLUMN jetton_mints.response_destination IS 'response_address of the body, raw address; NULL when addr_none.';
COMMENT ON COLUMN jetton_mints.forward_ton_amount IS 'forward_ton_amount of the body, nanotons (exact decimal).';
COMMENT ON COLUMN jetton_mints.trace_id IS 'trace_id of the transaction; NULL while traces are not assembled.';

CREATE INDEX jetton_mints_index_1 ON jetton_mints (destination, tx_lt);
CREATE INDEX jetton_mints_index_2 ON jetton_mints (jetton_wallet_address, tx_lt);
CREATE INDEX jetton_mints_index_3 ON jetton_mints (jetton_master_address, tx_lt);
CREATE INDEX jetton_mints_index_4 ON jetton_mints (tx_lt);
CREATE INDEX jetton_mints_index_mc_seqno ON jetton_mints (mc_seqno);

-- nft_collections ---------------------------------------------------------------------------------

CREATE TABLE nft_collections (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  next_item_index numeric,
  owner_address tonaddr,
  collection_content jsonb,
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL
);
COMMENT ON TABLE nft_collections IS 'One row per detected TEP-62 NFT collection (get_collection_data with exact types), its newest decoded state: /nft/collections. Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN nft_collections.id IS 'Row number from a sequence: the default order of /nft/collections and stable paging.';
COMMENT ON COLUMN nft_collections.address IS 'The collection contract, raw address.';
COMMENT ON COLUMN nft_collections.next_item_index IS 'get_collection_data next_item_index (exact decimal; -1 for collections with non-sequential indexes).';
COMMENT ON COLUMN nft_collections.owner_address IS 'get_collection_data owner_address, raw address; NULL when addr_none.';
COMMENT ON COLUMN nft_collections.collection_content IS 'get_collection_data collection_content decoded as TEP-64 ({"uri": …} off-chain, decoded string keys on-chain); NULL when undecodable.';
COMMENT ON COLUMN nft_collections.last_transaction_lt IS 'lt of the collection''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN nft_collections.code_hash IS 'Hash of the collection''s code cell in that state, base64.';
COMMENT ON COLUMN nft_collections.data_hash IS 'Hash of the collection''s data cell in that state, base64.';

CREATE INDEX nft_collections_index_1 ON nft_collections (owner_address, id);
CREATE INDEX nft_collections_index_2 ON nft_collections (id);

-- nft_items ---------------------------------------------------------------------------------------

CREATE TABLE nft_items (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  init boolean,
  index numeric,
  collection_address tonaddr,
  owner_address tonaddr,
  content jsonb,
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL,
  real_owner tonaddr
);
COMMENT ON TABLE nft_items IS 'One row per detected TEP-62 NFT item (get_nft_data with exact types, confirmed by its collection''s get_nft_address_by_index), SBTs and DNS items included, its newest decoded state: /nft/items. Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN nft_items.id IS 'Row number from a sequence: the default order of /nft/items and stable paging.';
COMMENT ON COLUMN nft_items.address IS 'The item contract, raw address.';
COMMENT ON COLUMN nft_items.init IS 'get_nft_data init flag: the item has been initialised by its collection.';
COMMENT ON COLUMN nft_items.index IS 'get_nft_data index (exact decimal; for DNS items the 256-bit hash of the name).';
COMMENT ON COLUMN nft_items.collection_address IS 'get_nft_data collection_address, raw address; NULL for an item without a collection (addr_none).';
COMMENT ON COLUMN nft_items.owner_address IS 'get_nft_data owner_address, raw address; NULL when addr_none (e.g. an uninitialised item).';
COMMENT ON COLUMN nft_items.content IS 'The item''s full content (the collection''s get_nft_content applied to the individual content) decoded as TEP-64; for DNS items {"domain": …}; NULL when undecodable.';
COMMENT ON COLUMN nft_items.last_transaction_lt IS 'lt of the item''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN nft_items.code_hash IS 'Hash of the item''s code cell in that state, base64.';
COMMENT ON COLUMN nft_items.data_hash IS 'Hash of the item''s data cell in that state, base64.';
COMMENT ON COLUMN nft_items.real_owner IS 'The seller when owner_address is a sale or auction contract holding the item (toncenter fills it from GetGems sale contracts); NULL otherwise. tongate does not decode sale contracts yet, so it stays NULL.';

CREATE INDEX nft_items_index_1 ON nft_items (collection_address, index);
CREATE INDEX nft_items_index_2 ON nft_items (owner_address, collection_address, index);
CREATE INDEX nft_items_index_3 ON nft_items (id);
CREATE INDEX nft_items_index_4 ON nft_items (last_transaction_lt);
CREATE INDEX nft_items_index_5 ON nft_items (owner_address, last_transaction_lt);
CREATE INDEX nft_items_index_6 ON nft_items (collection_address, last_transaction_lt);
CREATE INDEX nft_items_index_7 ON nft_items (real_owner, last_transaction_lt);
CREATE INDEX nft_items_index_8 ON nft_items (real_owner, collection_address, index);

-- nft_transfers -----------------------------------------------------------------------------------

CREATE TABLE nft_transfers (
  tx_hash tonhash NOT NULL,
  tx_lt bigint NOT NULL,
  tx_now bigint NOT NULL,
  tx_aborted boolean NOT NULL,
  mc_seqno integer NOT NULL,
  query_id numeric,
  nft_item_address tonaddr,
  nft_item_index numeric,
  nft_collection_address tonaddr,
  old_owner tonaddr,
  new_owner tonaddr,
  response_destination tonaddr,
  custom_payload text,
  forward_amount numeric,
  forward_payload text,
  trace_id tonhash,
  PRIMARY KEY (tx_hash, tx_lt)
);
COMMENT ON TABLE nft_transfers IS 'One row per transfer#5fcc3d14 received by a detected NFT item, aborted transactions included and marked: /nft/transfers. Written with the masterchain block of the transaction; a re-run deletes the block''s rows by mc_seqno first.';
COMMENT ON COLUMN nft_transfers.tx_hash IS 'Hash of the transaction in which the item received the transfer, base64.';
COMMENT ON COLUMN nft_transfers.tx_lt IS 'lt of that transaction.';
COMMENT ON COLUMN nft_transfers.tx_now IS 'now of that transaction, unix seconds.';
COMMENT ON COLUMN nft_transfers.tx_aborted IS 'The transaction was aborted (ownership did not change).';
COMMENT ON COLUMN nft_transfers.mc_seqno IS 'The masterchain block that committed the transaction.';
COMMENT ON COLUMN nft_transfers.query_id IS 'query_id of the body (uint64, exact decimal).';
COMMENT ON COLUMN nft_transfers.nft_item_address IS 'The item (the transaction''s account), raw address.';
COMMENT ON COLUMN nft_transfers.nft_item_index IS 'The item''s index (its get_nft_data index, exact decimal).';
COMMENT ON COLUMN nft_transfers.nft_collection_address IS 'The item''s collection, raw address; NULL for an item without one.';
COMMENT ON COLUMN nft_transfers.old_owner IS 'Source of the inbound message (the owner before), raw address.';
COMMENT ON COLUMN nft_transfers.new_owner IS 'new_owner of the body, raw address.';
COMMENT ON COLUMN nft_transfers.response_destination IS 'response_destination of the body, raw address; NULL when addr_none.';
COMMENT ON COLUMN nft_transfers.custom_payload IS 'custom_payload cell of the body as a base64 BoC; NULL when absent.';
COMMENT ON COLUMN nft_transfers.forward_amount IS 'forward_amount of the body, nanotons (exact decimal).';
COMMENT ON COLUMN nft_transfers.forward_payload IS 'forward_payload of the body (inline or in its reference) as a base64 BoC; NULL when empty.';
COMMENT ON COLUMN nft_transfers.trace_id IS 'trace_id of the transaction; NULL while traces are not assembled.';

-- toncenter numbers these 2-5, 7, 9, 10.
CREATE INDEX nft_transfers_index_2 ON nft_transfers (nft_item_address, tx_lt);
CREATE INDEX nft_transfers_index_3 ON nft_transfers (nft_collection_address, tx_now);
CREATE INDEX nft_transfers_index_4 ON nft_transfers (nft_collection_address, tx_lt);
CREATE INDEX nft_transfers_index_5 ON nft_transfers (old_owner, tx_lt);
CREATE INDEX nft_transfers_index_7 ON nft_transfers (new_owner, tx_lt);
CREATE INDEX nft_transfers_index_9 ON nft_transfers (tx_lt);
CREATE INDEX nft_transfers_index_10 ON nft_transfers (tx_now, tx_lt);
-- tongate: a re-run or re-derive deletes a masterchain block's rows by mc_seqno.
CREATE INDEX nft_transfers_index_mc_seqno ON nft_transfers (mc_seqno);

-- dns_entries -------------------------------------------------------------------------------------

CREATE TABLE dns_entries (
  nft_item_address tonaddr PRIMARY KEY,
  nft_item_owner tonaddr,
  domain varchar,
  dns_next_resolver tonaddr,
  dns_wallet tonaddr,
  dns_site_adnl varchar(64),
  dns_storage_bag_id varchar(64),
  last_transaction_lt bigint NOT NULL
);
COMMENT ON TABLE dns_entries IS 'One row per TEP-81 DNS item of a configured DNS root collection (.ton on mainnet, the devnet''s own root), its newest decoded records: /dns/records and address_book domain. Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN dns_entries.nft_item_address IS 'The DNS item (an NFT item of the root collection), raw address.';
COMMENT ON COLUMN dns_entries.nft_item_owner IS 'The item''s owner (nft_items.owner_address), raw address; NULL when none.';
COMMENT ON COLUMN dns_entries.domain IS 'The full domain name in reading order with its suffix, e.g. alice.ton.';
COMMENT ON COLUMN dns_entries.dns_next_resolver IS 'dns_next_resolver record (category sha256("dns_next_resolver")), raw address; NULL when absent.';
COMMENT ON COLUMN dns_entries.dns_wallet IS 'wallet record (category sha256("wallet")), raw address; NULL when absent.';
COMMENT ON COLUMN dns_entries.dns_site_adnl IS 'site record: the ADNL address as 64 hex digits; NULL when absent.';
COMMENT ON COLUMN dns_entries.dns_storage_bag_id IS 'storage record: the TON Storage bag id as 64 hex digits; NULL when absent.';
COMMENT ON COLUMN dns_entries.last_transaction_lt IS 'lt of the item''s last transaction in the decoded state; a newer state replaces the row only when this grows.';

CREATE INDEX dns_entries_index_3 ON dns_entries (dns_wallet, length(domain));
CREATE INDEX dns_entries_index_4 ON dns_entries (nft_item_owner, length(domain)) INCLUDE (domain)
  WHERE nft_item_owner = dns_wallet;
-- tongate: /dns/records?domain= (toncenter scans dns_entries for it).
CREATE INDEX dns_entries_index_domain ON dns_entries (domain);

-- multisig ----------------------------------------------------------------------------------------

CREATE TABLE multisig (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  next_order_seqno numeric,
  threshold bigint,
  signers tonaddr[],
  proposers tonaddr[],
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL
);
COMMENT ON TABLE multisig IS 'One row per detected multisig v2 wallet (get_multisig_data with exact types), its newest decoded state: /multisig/wallets. Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN multisig.id IS 'Row number from a sequence: the order of /multisig/wallets.';
COMMENT ON COLUMN multisig.address IS 'The multisig contract, raw address.';
COMMENT ON COLUMN multisig.next_order_seqno IS 'get_multisig_data next_order_seqno (exact decimal; -1 when orders may use any seqno).';
COMMENT ON COLUMN multisig.threshold IS 'get_multisig_data threshold: approvals an order needs.';
COMMENT ON COLUMN multisig.signers IS 'get_multisig_data signers in index order, raw addresses.';
COMMENT ON COLUMN multisig.proposers IS 'get_multisig_data proposers in index order, raw addresses ({} when none).';
COMMENT ON COLUMN multisig.last_transaction_lt IS 'lt of the wallet''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN multisig.code_hash IS 'Hash of the wallet''s code cell in that state, base64.';
COMMENT ON COLUMN multisig.data_hash IS 'Hash of the wallet''s data cell in that state, base64.';

CREATE INDEX multisig_index_1 ON multisig (id);
CREATE INDEX multisig_index_2 ON multisig USING gin (signers);
CREATE INDEX multisig_index_3 ON multisig USING gin (proposers);

-- multisig_orders ---------------------------------------------------------------------------------

CREATE TABLE multisig_orders (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  multisig_address tonaddr,
  order_seqno numeric,
  threshold bigint,
  sent_for_execution boolean,
  approvals_mask numeric,
  approvals_num bigint,
  expiration_date bigint,
  order_boc text,
  signers tonaddr[],
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL
);
COMMENT ON TABLE multisig_orders IS 'One row per detected multisig v2 order (get_order_data with exact types, confirmed by its multisig''s get_order_address), its newest decoded state: /multisig/orders and the orders of /multisig/wallets. Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN multisig_orders.id IS 'Row number from a sequence: the order of /multisig/orders.';
COMMENT ON COLUMN multisig_orders.address IS 'The order contract, raw address.';
COMMENT ON COLUMN multisig_orders.multisig_address IS 'get_order_data multisig_address: the wallet the order belongs to, raw address.';
COMMENT ON COLUMN multisig_orders.order_seqno IS 'get_order_data order_seqno (exact decimal).';
COMMENT ON COLUMN multisig_orders.threshold IS 'get_order_data threshold.';
COMMENT ON COLUMN multisig_orders.sent_for_execution IS 'get_order_data sent_for_execution?: the order has been executed.';
COMMENT ON COLUMN multisig_orders.approvals_mask IS 'get_order_data approvals_mask: bit i set when signer i approved (exact decimal).';
COMMENT ON COLUMN multisig_orders.approvals_num IS 'get_order_data approvals_num.';
COMMENT ON COLUMN multisig_orders.expiration_date IS 'get_order_data expiration_date, unix seconds.';
COMMENT ON COLUMN multisig_orders.order_boc IS 'get_order_data order: the action dictionary cell as a base64 BoC (/multisig/orders?parse_actions decodes it).';
COMMENT ON COLUMN multisig_orders.signers IS 'get_order_data signers in index order, raw addresses.';
COMMENT ON COLUMN multisig_orders.last_transaction_lt IS 'lt of the order''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN multisig_orders.code_hash IS 'Hash of the order''s code cell in that state, base64.';
COMMENT ON COLUMN multisig_orders.data_hash IS 'Hash of the order''s data cell in that state, base64.';

CREATE INDEX multisig_orders_index_1 ON multisig_orders (id);
-- toncenter's key is (multisig_address); id added so /multisig/orders?multisig_address= pages in id order.
CREATE INDEX multisig_orders_index_2 ON multisig_orders (multisig_address, id);
CREATE INDEX multisig_orders_index_3 ON multisig_orders USING gin (signers);

-- vesting_contracts, vesting_whitelist ------------------------------------------------------------

CREATE TABLE vesting_contracts (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  vesting_start_time bigint,
  vesting_total_duration bigint,
  unlock_period bigint,
  cliff_duration bigint,
  vesting_total_amount numeric,
  vesting_sender_address tonaddr,
  owner_address tonaddr,
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL
);
COMMENT ON TABLE vesting_contracts IS 'One row per detected vesting contract (get_vesting_data with exact types), its newest decoded state: /vesting. Updated in place only when last_transaction_lt grows; its whitelist rows are replaced together with it.';
COMMENT ON COLUMN vesting_contracts.id IS 'Row number from a sequence: the order of /vesting.';
COMMENT ON COLUMN vesting_contracts.address IS 'The vesting contract, raw address.';
COMMENT ON COLUMN vesting_contracts.vesting_start_time IS 'get_vesting_data vesting_start_time, unix seconds.';
COMMENT ON COLUMN vesting_contracts.vesting_total_duration IS 'get_vesting_data vesting_total_duration, seconds.';
COMMENT ON COLUMN vesting_contracts.unlock_period IS 'get_vesting_data unlock_period, seconds.';
COMMENT ON COLUMN vesting_contracts.cliff_duration IS 'get_vesting_data cliff_duration, seconds.';
COMMENT ON COLUMN vesting_contracts.vesting_total_amount IS 'get_vesting_data vesting_total_amount, nanotons (exact decimal).';
COMMENT ON COLUMN vesting_contracts.vesting_sender_address IS 'get_vesting_data vesting_sender_address, raw address.';
COMMENT ON COLUMN vesting_contracts.owner_address IS 'get_vesting_data owner_address, raw address.';
COMMENT ON COLUMN vesting_contracts.last_transaction_lt IS 'lt of the contract''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN vesting_contracts.code_hash IS 'Hash of the contract''s code cell in that state, base64.';
COMMENT ON COLUMN vesting_contracts.data_hash IS 'Hash of the contract''s data cell in that state, base64.';

CREATE TABLE vesting_whitelist (
  vesting_contract_address tonaddr NOT NULL,
  wallet_address tonaddr NOT NULL,
  PRIMARY KEY (vesting_contract_address, wallet_address)
);
COMMENT ON TABLE vesting_whitelist IS 'One row per (vesting contract, whitelisted address) of the contract''s decoded state (get_whitelist): /vesting whitelist and check_whitelist. Replaced with its vesting_contracts row.';
COMMENT ON COLUMN vesting_whitelist.vesting_contract_address IS 'The vesting contract, raw address (vesting_contracts.address).';
COMMENT ON COLUMN vesting_whitelist.wallet_address IS 'An address the contract lets its owner send to while locked, raw address.';

CREATE INDEX vesting_index_1 ON vesting_whitelist (wallet_address);
CREATE INDEX vesting_index_2 ON vesting_contracts (vesting_sender_address, id);
CREATE INDEX vesting_index_3 ON vesting_contracts (owner_address, id);
CREATE INDEX vesting_index_4 ON vesting_contracts (id);

-- address_metadata --------------------------------------------------------------------------------

CREATE TABLE address_metadata (
  address tonaddr NOT NULL,
  type varchar NOT NULL,
  valid boolean DEFAULT true,
  name varchar,
  description varchar,
  extra jsonb,
  symbol varchar,
  image varchar,
  updated_at bigint,
  expires_at bigint,
  reindex_allowed boolean NOT NULL DEFAULT true,
  PRIMARY KEY (address, type)
);
COMMENT ON TABLE address_metadata IS 'Off-chain TEP-64 metadata fetched from a content uri, one row per (address, kind): the metadata section of /api/v3 answers and /metadata. Filled by the optional metadata job (src/index/metadata), never by indexing; a failed fetch leaves a row with valid false to retry after expires_at.';
COMMENT ON COLUMN address_metadata.address IS 'The jetton master, NFT collection or NFT item, raw address.';
COMMENT ON COLUMN address_metadata.type IS 'Which table the address is in: jetton_masters, nft_collections, nft_items (or jetton_wallets), as the metadata token_info type.';
COMMENT ON COLUMN address_metadata.valid IS 'The fetch gave a JSON object; false after a failed fetch (bad URL, HTTP error, timeout, too large, not JSON), which the API shows as valid: false without name or image.';
COMMENT ON COLUMN address_metadata.name IS 'name from the fetched JSON; NULL when absent or invalid.';
COMMENT ON COLUMN address_metadata.description IS 'description from the fetched JSON.';
COMMENT ON COLUMN address_metadata.extra IS 'The other keys of the fetched JSON object (e.g. decimals, attributes, social links) as fetched; NULL when invalid.';
COMMENT ON COLUMN address_metadata.symbol IS 'symbol from the fetched JSON (jettons).';
COMMENT ON COLUMN address_metadata.image IS 'image URL from the fetched JSON, as given.';
COMMENT ON COLUMN address_metadata.updated_at IS 'When the row was last fetched, unix seconds.';
COMMENT ON COLUMN address_metadata.expires_at IS 'When the row should be fetched again, unix seconds; NULL for never.';
COMMENT ON COLUMN address_metadata.reindex_allowed IS 'Whether the job may fetch the row again after expires_at (false pins a manually set row).';
