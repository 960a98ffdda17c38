// resolveQueueConfig: --redis-url, then REDIS_URL, else the in-process queue; bad URLs are refused without
// echoing their password.
import { describe, expect, it } from 'vitest';
import { resolveQueueConfig } from '../../src/common/index.ts';

describe('resolveQueueConfig', () => {
  it('prefers --redis-url, then REDIS_URL, else the in-process queue', () => {
    expect(resolveQueueConfig({ flags: { redisUrl: 'redis://a:6379' }, env: { REDIS_URL: 'redis://b:6379' } })).toEqual(
      {
        kind: 'bullmq',
        url: 'redis://a:6379',
      },
    );
    expect(resolveQueueConfig({ flags: {}, env: { REDIS_URL: 'rediss://b:6380' } })).toEqual({
      kind: 'bullmq',
      url: 'rediss://b:6380',
    });
    expect(resolveQueueConfig({ flags: { redisUrl: ' ' }, env: { REDIS_URL: '' } })).toEqual({ kind: 'local' });
    expect(resolveQueueConfig({ flags: { queuePrefix: 'x' }, env: {} })).toEqual({ kind: 'local' });
  });

  it('carries the key prefix and refuses one with a colon', () => {
    expect(resolveQueueConfig({ flags: { queuePrefix: 'prod' }, env: { REDIS_URL: 'redis://h' } })).toEqual({
      kind: 'bullmq',
      url: 'redis://h',
      prefix: 'prod',
    });
    expect(() => resolveQueueConfig({ flags: { queuePrefix: 'a:b' }, env: { REDIS_URL: 'redis://h' } })).toThrow(
      expect.objectContaining({ code: 'TG_CONFIG_INVALID' }),
    );
  });

  it('refuses URLs that are not redis://, naming their source and never the password', () => {
    for (const [flags, env, source] of [
      [{ redisUrl: 'http://u:secret@h' }, {}, '--redis-url'],
      [{}, { REDIS_URL: 'postgres://u:secret@h/db' }, 'REDIS_URL'],
      [{}, { REDIS_URL: 'not a url secret' }, 'REDIS_URL'],
    ] as const) {
      let error: Error | undefined;
      try {
        resolveQueueConfig({ flags, env });
      } catch (e) {
        error = e as Error;
      }
      expect(error).toMatchObject({ code: 'TG_CONFIG_INVALID' });
      expect(error?.message).toContain(source);
      expect(error?.message).not.toContain('secret');
    }
  });
});
