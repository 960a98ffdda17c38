import { describe, expect, it } from 'vitest';
import { TL_SCHEMA } from '../tl/index.ts';
import { LITE_HANDLERS } from './dispatcher.ts';

describe('dispatcher', () => {
  it('has a handler for every liteServer.* function of lite_api.tl (the envelope functions aside)', () => {
    const envelope = new Set(['liteServer.query', 'liteServer.queryPrefix', 'liteServer.waitMasterchainSeqno']);
    const functions = TL_SCHEMA.filter((c) => c.kind === 'function' && !envelope.has(c.name)).map((c) => c.name);
    expect(functions.length).toBeGreaterThan(30);
    expect(Object.keys(LITE_HANDLERS).sort()).toEqual(functions.sort());
  });
});
