// The `metadata` section (v3-api.md §2.8) and GET /metadata: for each raw address that is a jetton master, jetton
// wallet, NFT collection or NFT item, its token info. Those rows come from the jetton/NFT decoders and the
// off-chain metadata fetcher, which do not exist yet, so every address is "not a token object" and is absent:
// the map is {} (toncenter's answer for plain accounts). The types and the one entry point are here so the
// routes already answer in the final shape and the decoders only have to fill this function.
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/index.ts';
import { requestFlag } from './render/values.ts';

/** One element of token_info. */
export interface TokenInfo {
  valid?: boolean;
  /** jetton_masters | jetton_wallets | nft_collections | nft_items */
  type?: string;
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  nft_index?: string;
  extra?: Record<string, unknown>;
}

export interface AddressMetadata {
  is_indexed: boolean;
  token_info: TokenInfo[];
}

/** Metadata for `addresses` (raw forms; nulls and duplicates ignored), keyed by raw address. */
export async function buildMetadata(
  _q: Queryable,
  _addresses: Iterable<string | null | undefined>,
): Promise<Record<string, AddressMetadata>> {
  return {};
}

/** X-No-Metadata / x_no_metadata (v3-api.md §2.3): the caller wants `metadata: {}`. */
export function metadataSkipped(req: FastifyRequest): boolean {
  return requestFlag(req, 'x-no-metadata', 'x_no_metadata');
}
