export { createDecodePool, type DecodePool, type DecodePoolOptions, defaultDecodeThreads } from './pool.ts';
