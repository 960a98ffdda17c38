export { BOC_MAGIC, type BocHeader, parseBocHeader } from '../cell/index.ts';
export { type ParseBocOptions, parseBoc } from './parse-boc.ts';
export { type SerializeBocOptions, serializeBoc, significantLevels } from './serialize-boc.ts';
