-- GetGems marketplace contracts as toncenter keeps them (issue 19): fix-price sales and auctions holding an NFT item
-- for its seller. Detected like the other contracts (get-methods in our TVM with exact result types, contracts.md
-- §1.1): a fix-price sale by get_sale_data starting with the magic 0x46495850 ("FIXP", 11 entries), an auction by
-- get_auction_data_v4 (26 entries) or by get_sale_data starting with 0x415543 ("AUC", 20 entries). They feed
-- /api/v3/nft/sales, the on-sale fields of /nft/items (real_owner: the seller while a sale holds the item) and the
-- classifier (an nft_transfer sent by a sale or auction is a purchase at its price). New tables: nothing is
-- rewritten; `tongate index rederive --family nft` fills them for an existing index. No secondary indexes:
-- every reader looks rows up by the contract's address (toncenter has none either).

-- getgems_nft_sales -------------------------------------------------------------------------------

CREATE TABLE getgems_nft_sales (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  is_complete boolean,
  created_at bigint,
  marketplace_address tonaddr,
  nft_address tonaddr,
  nft_owner_address tonaddr,
  full_price numeric,
  marketplace_fee_address tonaddr,
  marketplace_fee numeric,
  royalty_address tonaddr,
  royalty_amount numeric,
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL
);
COMMENT ON TABLE getgems_nft_sales IS 'One row per detected GetGems fix-price sale (get_sale_data with the FIXP magic and exact types), its newest decoded state: /nft/sales (type getgems_sale). Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN getgems_nft_sales.id IS 'Row number from a sequence.';
COMMENT ON COLUMN getgems_nft_sales.address IS 'The sale contract, raw address.';
COMMENT ON COLUMN getgems_nft_sales.is_complete IS 'get_sale_data is_complete: the item was bought or the sale cancelled.';
COMMENT ON COLUMN getgems_nft_sales.created_at IS 'get_sale_data created_at, unix seconds (set by the marketplace at deployment).';
COMMENT ON COLUMN getgems_nft_sales.marketplace_address IS 'get_sale_data marketplace_address, raw address.';
COMMENT ON COLUMN getgems_nft_sales.nft_address IS 'get_sale_data nft_address: the item on sale, raw address.';
COMMENT ON COLUMN getgems_nft_sales.nft_owner_address IS 'get_sale_data nft_owner_address: the seller, raw address; NULL (addr_none) until the item reached the sale.';
COMMENT ON COLUMN getgems_nft_sales.full_price IS 'get_sale_data full_price, nanotons (exact decimal).';
COMMENT ON COLUMN getgems_nft_sales.marketplace_fee_address IS 'get_sale_data marketplace_fee_address, raw address.';
COMMENT ON COLUMN getgems_nft_sales.marketplace_fee IS 'get_sale_data marketplace_fee, nanotons (exact decimal).';
COMMENT ON COLUMN getgems_nft_sales.royalty_address IS 'get_sale_data royalty_address, raw address.';
COMMENT ON COLUMN getgems_nft_sales.royalty_amount IS 'get_sale_data royalty_amount, nanotons (exact decimal).';
COMMENT ON COLUMN getgems_nft_sales.last_transaction_lt IS 'lt of the sale''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN getgems_nft_sales.code_hash IS 'Hash of the sale''s code cell in that state, base64.';
COMMENT ON COLUMN getgems_nft_sales.data_hash IS 'Hash of the sale''s data cell in that state, base64.';

-- getgems_nft_auctions ----------------------------------------------------------------------------

CREATE TABLE getgems_nft_auctions (
  id bigserial NOT NULL,
  address tonaddr PRIMARY KEY,
  end_flag boolean,
  end_time bigint,
  mp_addr tonaddr,
  nft_addr tonaddr,
  nft_owner tonaddr,
  last_bid numeric,
  last_member tonaddr,
  min_step bigint,
  mp_fee_addr tonaddr,
  mp_fee_factor bigint,
  mp_fee_base bigint,
  royalty_fee_addr tonaddr,
  royalty_fee_factor bigint,
  royalty_fee_base bigint,
  max_bid numeric,
  min_bid numeric,
  created_at bigint,
  last_bid_at bigint,
  is_canceled boolean,
  last_transaction_lt bigint NOT NULL,
  code_hash tonhash NOT NULL,
  data_hash tonhash NOT NULL
);
COMMENT ON TABLE getgems_nft_auctions IS 'One row per detected GetGems auction (get_auction_data_v4, else get_sale_data with the AUC magic, exact types), its newest decoded state: /nft/sales (type getgems_auction). Updated in place only when last_transaction_lt grows.';
COMMENT ON COLUMN getgems_nft_auctions.id IS 'Row number from a sequence.';
COMMENT ON COLUMN getgems_nft_auctions.address IS 'The auction contract, raw address.';
COMMENT ON COLUMN getgems_nft_auctions.end_flag IS 'The auction has ended (sold, cancelled or expired and settled).';
COMMENT ON COLUMN getgems_nft_auctions.end_time IS 'When bidding ends, unix seconds.';
COMMENT ON COLUMN getgems_nft_auctions.mp_addr IS 'The marketplace, raw address.';
COMMENT ON COLUMN getgems_nft_auctions.nft_addr IS 'The item auctioned, raw address.';
COMMENT ON COLUMN getgems_nft_auctions.nft_owner IS 'The seller, raw address; NULL (addr_none) until the item reached the auction.';
COMMENT ON COLUMN getgems_nft_auctions.last_bid IS 'The highest bid so far, nanotons (exact decimal); 0 without bids.';
COMMENT ON COLUMN getgems_nft_auctions.last_member IS 'Who placed the highest bid, raw address; NULL without bids.';
COMMENT ON COLUMN getgems_nft_auctions.min_step IS 'Minimal raise of a bid (percent in v3, as the contract states it).';
COMMENT ON COLUMN getgems_nft_auctions.mp_fee_addr IS 'Where the marketplace fee goes, raw address.';
COMMENT ON COLUMN getgems_nft_auctions.mp_fee_factor IS 'Marketplace fee numerator.';
COMMENT ON COLUMN getgems_nft_auctions.mp_fee_base IS 'Marketplace fee denominator.';
COMMENT ON COLUMN getgems_nft_auctions.royalty_fee_addr IS 'Where the royalty goes, raw address.';
COMMENT ON COLUMN getgems_nft_auctions.royalty_fee_factor IS 'Royalty numerator.';
COMMENT ON COLUMN getgems_nft_auctions.royalty_fee_base IS 'Royalty denominator.';
COMMENT ON COLUMN getgems_nft_auctions.max_bid IS 'The buy-now price, nanotons (exact decimal); 0 for none.';
COMMENT ON COLUMN getgems_nft_auctions.min_bid IS 'The lowest first bid, nanotons (exact decimal).';
COMMENT ON COLUMN getgems_nft_auctions.created_at IS 'When the auction was created, unix seconds.';
COMMENT ON COLUMN getgems_nft_auctions.last_bid_at IS 'When the highest bid was placed, unix seconds; 0 without bids.';
COMMENT ON COLUMN getgems_nft_auctions.is_canceled IS 'The seller cancelled the auction.';
COMMENT ON COLUMN getgems_nft_auctions.last_transaction_lt IS 'lt of the auction''s last transaction in the decoded state; a newer state replaces the row only when this grows.';
COMMENT ON COLUMN getgems_nft_auctions.code_hash IS 'Hash of the auction''s code cell in that state, base64.';
COMMENT ON COLUMN getgems_nft_auctions.data_hash IS 'Hash of the auction''s data cell in that state, base64.';

COMMENT ON COLUMN nft_items.real_owner IS 'The seller when owner_address is a GetGems sale or auction contract holding the item, decoded in the same unit as the item''s state (toncenter fills it the same way); NULL otherwise.';
