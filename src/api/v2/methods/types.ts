import type { V2Context } from '../context.ts';
import type { V2Params } from '../params.ts';

export interface V2Method {
  /** REST path segment and JSON-RPC method name. */
  name: string;
  /** Other names for the same method (e.g. shards for getShards). */
  aliases?: string[];
  /** read: GET and POST (toncenter 2.1); post: POST only (send, fee, get-method). */
  verbs: 'read' | 'post';
  run(p: V2Params, ctx: V2Context): Promise<unknown>;
}
