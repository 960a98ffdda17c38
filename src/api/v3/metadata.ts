// The `metadata` section (v3-api.md §2.8) and GET /metadata: token info for the addresses that are jetton
// masters, jetton wallets, NFT collections or NFT items; any other address is absent. As toncenter builds it:
// - a jetton wallet: {valid, type "jetton_wallets", extra {balance, jetton, owner}} from jetton_wallets, and its
//   master is looked up too, so a page of wallets carries their jettons' names and decimals;
// - a master, collection or item: the off-chain metadata row (address_metadata) when one was written,
//   {valid: false, type} when that row says the content was invalid.
// Without such a row toncenter answers {type} with is_indexed false until its fetcher ran. Content that lives
// wholly on chain (no uri) needs no fetch, and the fetcher would only copy it, so it is answered at once as the
// fetcher writes it: name, symbol, description, image, every other key in `extra` (an item's DNS domain too).
// Content with a uri waits for the optional off-chain job (is_indexed false).
import type { FastifyRequest } from 'fastify';
import type { Queryable, Row } from '../../db/index.ts';
import { requestFlag } from './render/values.ts';

/** One element of token_info, keys in toncenter's order (absent ones left out, as its omitempty does). */
export interface TokenInfo {
  valid?: boolean;
  /** jetton_masters | jetton_wallets | nft_collections | nft_items */
  type?: string;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  nft_index?: string;
  is_nsfw?: boolean;
  is_scam?: boolean;
  extra?: Record<string, unknown>;
}

export interface AddressMetadata {
  is_indexed: boolean;
  token_info: TokenInfo[];
}

type TokenType = 'jetton_masters' | 'nft_collections' | 'nft_items';

interface TokenRow extends Row {
  address: string;
  type: TokenType;
  nft_index: string | null;
  content: Record<string, unknown> | null;
  domain: string | null;
  valid: boolean | null;
  name: string | null;
  symbol: string | null;
  description: string | null;
  image: string | null;
  extra: Record<string, unknown> | null;
}

interface Info {
  info: TokenInfo;
  indexed: boolean;
}

/** Jetton wallets among the addresses (their masters are then looked up as well). */
export const JETTON_WALLET_INFO_SQL =
  'SELECT address, owner, balance::text AS balance, jetton FROM jetton_wallets WHERE address = ANY($1)';

/** Masters, collections and items among the addresses, with their stored off-chain metadata. */
export const TOKEN_INFO_SQL = `SELECT t.address, t.type, t.nft_index, t.content, t.domain, m.valid, m.name, m.symbol,
    m.description, m.image, m.extra
  FROM (
    SELECT n.address, 'nft_items' AS type, n.index::text AS nft_index, n.content, d.domain
      FROM nft_items n LEFT JOIN dns_entries d ON d.nft_item_address = n.address WHERE n.address = ANY($1)
    UNION ALL
    SELECT c.address, 'nft_collections', NULL, c.collection_content, NULL FROM nft_collections c WHERE c.address = ANY($1)
    UNION ALL
    SELECT j.address, 'jetton_masters', NULL, j.jetton_content, NULL FROM jetton_masters j WHERE j.address = ANY($1)
  ) t
  LEFT JOIN address_metadata m ON m.address = t.address AND m.type = t.type`;

const NAMED_FIELDS = ['name', 'description', 'image', 'symbol'] as const;

/**
 * On-chain content as toncenter's fetcher turns it into a metadata row: string name/description/image/symbol
 * become fields, everything else goes to extra; null when the content points off chain (uri) or holds none of
 * what the type needs (a jetton its symbol, an item a name or a domain, others a name, description or image).
 */
function onChainInfo(r: TokenRow): Omit<TokenInfo, 'valid' | 'type' | 'nft_index' | 'is_nsfw' | 'is_scam'> | null {
  const content: Record<string, unknown> = { ...(r.content ?? {}) };
  if (typeof content.uri === 'string' || typeof content.url === 'string') return null;
  if (r.domain !== null) content.domain = r.domain;
  const fields: Record<string, string> = {};
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(content)) {
    if (typeof v === 'string' && (NAMED_FIELDS as readonly string[]).includes(k)) fields[k] = v;
    else extra[k] = v;
  }
  const enough =
    r.type === 'jetton_masters'
      ? fields.symbol !== undefined
      : r.type === 'nft_items'
        ? fields.name !== undefined || 'domain' in extra
        : fields.name !== undefined || fields.description !== undefined || fields.image !== undefined;
  if (!enough) return null;
  return { ...fields, ...(Object.keys(extra).length > 0 ? { extra } : {}) };
}

/** A valid token info in toncenter's key order. */
function validInfo(r: TokenRow, m: Omit<TokenInfo, 'valid' | 'type'>): TokenInfo {
  const out: TokenInfo = { valid: true, type: r.type };
  if (m.name !== undefined) out.name = m.name;
  if (m.symbol !== undefined) out.symbol = m.symbol;
  if (m.description !== undefined) out.description = m.description;
  if (m.image !== undefined) out.image = m.image;
  if (r.nft_index !== null) out.nft_index = r.nft_index;
  // toncenter reads these from address_metadata_flags (moderation lists we do not keep): never flagged here.
  out.is_nsfw = false;
  out.is_scam = false;
  if (m.extra && Object.keys(m.extra).length > 0) out.extra = m.extra;
  return out;
}

function typeOnly(r: TokenRow, valid?: boolean): TokenInfo {
  const out: TokenInfo = valid === undefined ? { type: r.type } : { valid, type: r.type };
  if (r.nft_index !== null) out.nft_index = r.nft_index;
  return out;
}

function tokenInfo(r: TokenRow): Info {
  if (r.valid === true) {
    const stored = {
      ...(r.name !== null ? { name: r.name } : {}),
      ...(r.symbol !== null ? { symbol: r.symbol } : {}),
      ...(r.description !== null ? { description: r.description } : {}),
      ...(r.image !== null ? { image: r.image } : {}),
      ...(r.extra ? { extra: r.extra } : {}),
    };
    return { info: validInfo(r, stored), indexed: true };
  }
  if (r.valid === false) return { info: typeOnly(r, false), indexed: true };
  const onChain = onChainInfo(r);
  return onChain ? { info: validInfo(r, onChain), indexed: true } : { info: typeOnly(r), indexed: false };
}

/** Metadata for `addresses` (raw forms; nulls and duplicates ignored), keyed by raw address in sorted order. */
export async function buildMetadata(
  q: Queryable,
  addresses: Iterable<string | null | undefined>,
): Promise<Record<string, AddressMetadata>> {
  const wanted = new Set([...addresses].filter((a): a is string => typeof a === 'string' && a.includes(':')));
  if (wanted.size === 0) return {};
  const infos = new Map<string, Info[]>();
  const add = (address: string, info: Info) => {
    const list = infos.get(address);
    if (list) list.push(info);
    else infos.set(address, [info]);
  };
  const wallets = await q.query<{ address: string; owner: string; balance: string | null; jetton: string }>(
    JETTON_WALLET_INFO_SQL,
    [[...wanted]],
  );
  const lookup = new Set(wanted);
  for (const w of wallets.rows) {
    // Go prints a map with sorted keys: balance, jetton, owner.
    const extra: Record<string, unknown> = {};
    if (w.balance !== null) extra.balance = w.balance;
    extra.jetton = w.jetton;
    extra.owner = w.owner;
    add(w.address, { info: { valid: true, type: 'jetton_wallets', extra }, indexed: true });
    lookup.add(w.jetton);
  }
  const tokens = await q.query<TokenRow>(TOKEN_INFO_SQL, [[...lookup]]);
  for (const r of tokens.rows) add(r.address, tokenInfo(r));
  const out: Record<string, AddressMetadata> = {};
  for (const address of [...infos.keys()].sort()) {
    const list = infos.get(address) ?? [];
    out[address] = { is_indexed: list.every((i) => i.indexed), token_info: list.map((i) => i.info) };
  }
  return out;
}

/** X-No-Metadata / x_no_metadata (v3-api.md §2.3): the caller wants `metadata: {}`. */
export function metadataSkipped(req: FastifyRequest): boolean {
  return requestFlag(req, 'x-no-metadata', 'x_no_metadata');
}
