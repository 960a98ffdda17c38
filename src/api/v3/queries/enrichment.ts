// The address_book and metadata sections of a v3 answer: the address book and metadata of the addresses a page
// names, read from the index, with the per-request switches (X-No-Address-Book, X-No-Metadata) applied.
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../../db/index.ts';
import { type AddressBookEntry, buildAddressBook } from '../address-book.ts';
import { buildMetadata, metadataSkipped } from '../metadata.ts';
import { requestFlag } from '../render/values.ts';

/** The address_book of a list response: {} when the client sent X-No-Address-Book: true. */
export async function addressBookFor(
  req: FastifyRequest,
  q: Queryable,
  addresses: Iterable<string | null | undefined>,
  testnet: boolean,
): Promise<Record<string, AddressBookEntry>> {
  if (requestFlag(req, 'x-no-address-book', 'x_no_address_book')) return {};
  return buildAddressBook(q, addresses, { testnet });
}

export interface Enrichment {
  address_book: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/**
 * address_book and metadata of `addresses`, reusing entries a renderer already built (renderTransactions' book), so
 * each address is looked up once. X-No-Address-Book / X-No-Metadata give {}.
 */
export async function enrichment(
  req: FastifyRequest,
  q: Queryable,
  addresses: Iterable<string | null | undefined>,
  opts: { testnet: boolean; known?: Record<string, unknown>; metadata?: boolean },
): Promise<Enrichment> {
  const all = [...new Set([...addresses].filter((a): a is string => typeof a === 'string'))];
  const book: Record<string, unknown> = {};
  if (!requestFlag(req, 'x-no-address-book', 'x_no_address_book')) {
    const known = opts.known ?? {};
    const missing = all.filter((a) => !(a in known));
    const built = missing.length > 0 ? await buildAddressBook(q, missing, { testnet: opts.testnet }) : {};
    for (const a of all) {
      const entry = known[a] ?? built[a];
      if (entry !== undefined) book[a] = entry;
    }
  }
  const wanted = opts.metadata !== false && !metadataSkipped(req) && all.length > 0;
  const metadata = wanted ? await buildMetadata(q, all) : {};
  return { address_book: book, metadata };
}
