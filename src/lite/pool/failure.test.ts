import { describe, expect, it } from 'vitest';
import {
  AdnlError,
  CodecError,
  InputError,
  LiteServerError,
  LiteTimeoutError,
  ProofError,
} from '../../common/index.ts';
import { classifyFailure, isRetryable, penalizesServer } from './failure.ts';

describe('classifyFailure', () => {
  it('maps each failure to what the pool does next', () => {
    const cases: Array<[unknown, string, boolean, boolean]> = [
      [new AdnlError('socket closed'), 'transport', true, true],
      [new LiteTimeoutError('no answer'), 'timeout', true, true],
      [new CodecError('garbage'), 'bad_answer', true, true],
      [new ProofError('hash mismatch'), 'bad_answer', true, true],
      [new LiteServerError(651, 'block not in db'), 'history_miss', true, false],
      [
        new LiteServerError(-400, 'cannot load state: not in db', {
          details: { liteMessage: 'cannot load state: not in db' },
        }),
        'history_miss',
        true,
        false,
      ],
      [new LiteServerError(-503, 'timeout'), 'server_busy', true, false],
      [new LiteServerError(652, 'adnl timeout'), 'server_busy', true, false],
      [new LiteServerError(-400, 'bad request'), 'server_error', false, false],
      [new LiteServerError(621, 'unknown query'), 'server_error', false, false],
      [new InputError('bad address'), 'caller', false, false],
      [new Error('user bug'), 'caller', false, false],
    ];
    for (const [e, kind, retry, penalize] of cases) {
      const k = classifyFailure(e);
      expect([String((e as Error).message), k]).toEqual([String((e as Error).message), kind]);
      expect(isRetryable(k)).toBe(retry);
      expect(penalizesServer(k)).toBe(penalize);
    }
  });
});
