-- Some actions keep values other than addresses in three generic columns, as toncenter's classifier does: tgBTC's
-- tgbtc_mint and tgbtc_mint_fallback a bitcoin txid in asset_secondary, tgbtc_new_key a DKG public key in
-- source_secondary, tgbtc_dkg_log_fallback one in asset. With tonaddr (0007) the COPY of such an action failed, and
-- the trace's classification with it. The columns become varchar, as toncenter's are; every stored value keeps its
-- meaning, and addresses are still written in the raw upper-case form. Readers that want addresses take the values
-- of that form (the API's address book, action_accounts).
--
-- tonaddr is a domain over varchar: PostgreSQL changes the type without rewriting the table.
ALTER TABLE actions
  ALTER COLUMN source_secondary TYPE varchar,
  ALTER COLUMN asset TYPE varchar,
  ALTER COLUMN asset_secondary TYPE varchar;
COMMENT ON COLUMN actions.source_secondary IS 'Generic: the initiator''s secondary account (its jetton wallet…), per type; tgbtc_new_key: the DKG public key (hex), as toncenter stores it.';
COMMENT ON COLUMN actions.asset IS 'Generic: the asset (jetton master, NFT item, domain item), per type; NULL = TON; tgbtc_dkg_log_fallback: the DKG public key (hex).';
COMMENT ON COLUMN actions.asset_secondary IS 'Generic: a secondary asset (the NFT collection…), per type; tgbtc_mint(_fallback): the bitcoin txid (hex).';
