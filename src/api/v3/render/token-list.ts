// What the jetton and NFT routes share: their list parameters as toncenter reads them (v3-api.md §3.4-3.5: owner
// with its `address` alias, in/out/both direction, bounded address lists). queries/token-list.ts reads the lists.
import { addressListParam, invalid, listParam, oneParam, type Query } from '../params.ts';

/**
 * An address list parameter, normalised and deduplicated, with the documented maximum enforced (toncenter
 * documents "Maximum: N addresses" but does not check it, v3-api.md §11.8; a bounded list keeps one request
 * from becoming an unbounded ANY(...) scan).
 */
export function boundedAddresses(q: Query, name: string, max: number): string[] {
  const list = [...new Set(addressListParam(q, name))];
  if (list.length > max) throw invalid(`too many values in ${name}: ${list.length} > ${max}`);
  return list;
}

/** owner_address, or its alias `address` when owner_address is absent (toncenter's handlers do the same). */
export function ownerAddresses(q: Query, max: number): string[] {
  return listParam(q, 'owner_address').length > 0
    ? boundedAddresses(q, 'owner_address', max)
    : boundedAddresses(q, 'address', max);
}

/** direction of the transfer lists: in, out, or both (the same as none); anything else is refused. */
export function transferDirection(q: Query): 'in' | 'out' | undefined {
  const v = oneParam(q, 'direction');
  if (v === undefined || v === 'both') return undefined;
  if (v !== 'in' && v !== 'out') throw invalid('direction should be one of: in, out, both');
  return v;
}

/** `sort` is not a parameter of this list: toncenter ignores one sent anyway, so a stray one must not fail. */
export function withoutSort(q: Query): Query {
  const { sort: _ignored, ...rest } = q;
  return rest;
}
