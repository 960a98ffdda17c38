// The optional off-chain metadata job (address_metadata): fetches TEP-64 JSON documents beside indexing.
export { type FetchFn, type FetchJsonResult, fetchableUrl, fetchJson } from './fetch-json.ts';
export {
  fetchOffchainMetadata,
  type MetadataJobOptions,
  type MetadataLoop,
  type MetadataPassResult,
  rateLimiter,
  startMetadataLoop,
} from './fetch-metadata.ts';
