// What the contract decoders read back from the database: another account's newest stored state (a parent for
// cross-checks when the source cannot show it at the block) and an earlier detection (an event whose receiver
// the unit did not show with code and data). Parameterised statements only.
import { Address } from '@ton/core';
import type { Queryable } from '../../db/index.ts';
import { cellFromBase64, formatAddressV3 } from '../../ton/index.ts';
import type { AccountInput, Detected } from '../decode/contracts/types.ts';

const cellOf = (b64: string) => cellFromBase64(b64);
const hashOf = (b64: string | null) => (b64 ? Buffer.from(b64, 'base64') : Buffer.alloc(32));
const addr = (s: string | null) => (s ? Address.parseRaw(s) : null);

/** The newest stored state of `address` with code and data, or null. */
export async function storedAccount(db: Queryable, address: Address): Promise<AccountInput | null> {
  const r = await db.query<{
    code_boc: string | null;
    data_boc: string | null;
    balance: string;
    last_trans_lt: string;
  }>(
    `SELECT code_boc, data_boc, balance::text AS balance, last_trans_lt::text AS last_trans_lt
       FROM latest_account_states WHERE account = $1 AND account_status = 'active'`,
    [formatAddressV3(address)],
  );
  const row = r.rows[0];
  if (!row?.code_boc || !row.data_boc) return null;
  return {
    address,
    code: cellOf(row.code_boc),
    data: cellOf(row.data_boc),
    balance: BigInt(row.balance),
    lastTransLt: BigInt(row.last_trans_lt),
  };
}

/** An earlier detection of `address` as a jetton wallet or NFT item (what event joins need), or null. */
export async function storedDetection(db: Queryable, address: Address): Promise<Detected | null> {
  const a = formatAddressV3(address);
  const w = await db.query<{
    balance: string;
    owner: string;
    jetton: string;
    last_transaction_lt: string;
    code_hash: string | null;
    data_hash: string | null;
  }>(
    `SELECT balance::text AS balance, owner, jetton, last_transaction_lt::text AS last_transaction_lt, code_hash, data_hash
       FROM jetton_wallets WHERE address = $1`,
    [a],
  );
  const wr = w.rows[0];
  if (wr) {
    return {
      kind: 'jetton_wallet',
      address,
      codeHash: hashOf(wr.code_hash),
      dataHash: hashOf(wr.data_hash),
      lastTransLt: BigInt(wr.last_transaction_lt),
      balance: BigInt(wr.balance),
      owner: Address.parseRaw(wr.owner),
      jetton: Address.parseRaw(wr.jetton),
      mintless: null,
    };
  }
  const n = await db.query<{
    init: boolean;
    index: string;
    collection_address: string | null;
    owner_address: string | null;
    last_transaction_lt: string;
    code_hash: string | null;
    data_hash: string | null;
  }>(
    `SELECT init, index::text AS index, collection_address, owner_address,
            last_transaction_lt::text AS last_transaction_lt, code_hash, data_hash
       FROM nft_items WHERE address = $1`,
    [a],
  );
  const nr = n.rows[0];
  if (nr) {
    return {
      kind: 'nft_item',
      address,
      codeHash: hashOf(nr.code_hash),
      dataHash: hashOf(nr.data_hash),
      lastTransLt: BigInt(nr.last_transaction_lt),
      init: nr.init,
      index: BigInt(nr.index),
      collection: addr(nr.collection_address),
      owner: addr(nr.owner_address),
      content: null,
      dns: null,
    };
  }
  return null;
}
