// resolveDatabaseConfig(): flag, then DATABASE_URL, then PGlite under <data>/pg; bad URLs refused
// without echoing a password.
import { describe, expect, it } from 'vitest';
import { ConfigError, redactDatabaseUrl, resolveDatabaseConfig, resolveDataDir } from '../../src/common/index.ts';

const cwd = '/srv/tongate';

describe('resolveDatabaseConfig', () => {
  it('prefers --database-url, then DATABASE_URL', () => {
    expect(
      resolveDatabaseConfig({
        flags: { databaseUrl: 'postgres://flag@h/db', data: '/d' },
        env: { DATABASE_URL: 'postgres://env@h/db', TONGATE_DATA: '/e' },
        cwd,
      }),
    ).toEqual({ kind: 'postgres', url: 'postgres://flag@h/db' });
    expect(
      resolveDatabaseConfig({ flags: { data: '/d' }, env: { DATABASE_URL: 'postgresql://env@h:6432/db' }, cwd }),
    ).toEqual({ kind: 'postgres', url: 'postgresql://env@h:6432/db' });
  });

  it('falls back to PGlite under <data>/pg: --data, then TONGATE_DATA, then ./data', () => {
    expect(resolveDatabaseConfig({ flags: { data: '/d' }, env: { TONGATE_DATA: '/e' }, cwd })).toEqual({
      kind: 'pglite',
      dir: '/d/pg',
    });
    expect(resolveDatabaseConfig({ flags: {}, env: { TONGATE_DATA: 'rel' }, cwd })).toEqual({
      kind: 'pglite',
      dir: '/srv/tongate/rel/pg',
    });
    expect(resolveDatabaseConfig({ flags: {}, env: {}, cwd })).toEqual({ kind: 'pglite', dir: '/srv/tongate/data/pg' });
    expect(resolveDataDir({ flags: {}, env: {}, cwd })).toBe('/srv/tongate/data');
  });

  it('treats empty values as unset', () => {
    expect(
      resolveDatabaseConfig({ flags: { databaseUrl: '' }, env: { DATABASE_URL: '  ', TONGATE_DATA: '' }, cwd }),
    ).toEqual({ kind: 'pglite', dir: '/srv/tongate/data/pg' });
  });

  it('sets application_name for PostgreSQL only when asked', () => {
    expect(
      resolveDatabaseConfig({ flags: {}, env: { DATABASE_URL: 'postgres://h/db' }, cwd, applicationName: 'tongate-x' }),
    ).toEqual({ kind: 'postgres', url: 'postgres://h/db', applicationName: 'tongate-x' });
    expect(resolveDatabaseConfig({ flags: {}, env: {}, cwd, applicationName: 'tongate-x' })).toEqual({
      kind: 'pglite',
      dir: '/srv/tongate/data/pg',
    });
  });

  it('refuses URLs that are not postgres://, naming their source and never the password', () => {
    const refuse = (flags: { databaseUrl?: string }, env: Record<string, string>) => {
      try {
        resolveDatabaseConfig({ flags, env, cwd });
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        expect((e as ConfigError).code).toBe('TG_CONFIG_INVALID');
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refuse({}, { DATABASE_URL: 'mysql://u:hunter2@h/db' })).toMatch(/^DATABASE_URL must be a postgres:\/\//);
    expect(refuse({}, { DATABASE_URL: 'mysql://u:hunter2@h/db' })).not.toContain('hunter2');
    expect(refuse({ databaseUrl: 'hunter2 not a url' }, {})).toMatch(/^--database-url is not a URL/);
    expect(refuse({ databaseUrl: 'hunter2 not a url' }, {})).not.toContain('hunter2');
    expect(refuse({}, { DATABASE_URL: 'postgres:///db' })).toContain('has no host');
  });

  it('accepts a socket directory given as ?host=', () => {
    expect(
      resolveDatabaseConfig({ flags: {}, env: { DATABASE_URL: 'postgres:///db?host=/run/postgresql' }, cwd }),
    ).toEqual({
      kind: 'postgres',
      url: 'postgres:///db?host=/run/postgresql',
    });
  });
});

describe('redactDatabaseUrl', () => {
  it('hides the password in the authority and in the query string', () => {
    expect(redactDatabaseUrl('postgres://u:secret@h:5432/db')).toBe('postgres://u:***@h:5432/db');
    expect(redactDatabaseUrl('postgres://u@h/db?password=secret&sslmode=require')).toBe(
      'postgres://u@h/db?password=***&sslmode=require',
    );
    expect(redactDatabaseUrl('::secret::')).toBe('<unparseable database URL>');
  });
});
