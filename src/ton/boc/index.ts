export { type BocHeader, type ParseBocOptions, parseBoc, parseBocHeader } from './parse-boc.ts';
export { BOC_MAGIC, type SerializeBocOptions, serializeBoc, significantLevels } from './serialize-boc.ts';
