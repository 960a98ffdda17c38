// Error mapping by SQLSTATE class and socket error code: what a caller (worker, CLI) may retry.
import { describe, expect, it } from 'vitest';
import { DbError } from '../common/index.ts';
import { codeForSqlState, toDbError } from './db-error.ts';

const ctx = { where: 'PostgreSQL at h:5432/d', what: 'query', sql: 'SELECT 1' };

function pgError(message: string, code: string, extra: Record<string, string> = {}): Error {
  return Object.assign(new Error(message), { code, ...extra });
}

describe('codeForSqlState', () => {
  it.each([
    ['08006', 'TG_DB_UNAVAILABLE', true], // connection failure
    ['08001', 'TG_DB_UNAVAILABLE', true],
    ['57P01', 'TG_DB_UNAVAILABLE', true], // admin shutdown (terminated backend)
    ['57P03', 'TG_DB_UNAVAILABLE', true], // cannot connect now (starting up)
    ['53300', 'TG_DB_UNAVAILABLE', true], // too many connections
    ['58030', 'TG_DB_UNAVAILABLE', true], // I/O error
    ['40001', 'TG_DB_CONFLICT', true], // serialization failure
    ['40P01', 'TG_DB_CONFLICT', true], // deadlock
    ['55P03', 'TG_DB_CONFLICT', true], // lock not available
    ['57014', 'TG_DB_TIMEOUT', true], // statement timeout
    ['23505', 'TG_DB_CONSTRAINT', false], // unique violation
    ['23502', 'TG_DB_CONSTRAINT', false], // not null
    ['23514', 'TG_DB_CONSTRAINT', false], // check (also domain checks)
    ['28P01', 'TG_DB_OPEN', false], // bad password
    ['3D000', 'TG_DB_OPEN', false], // no such database
    ['42601', 'TG_DB_QUERY', false], // syntax
    ['42P01', 'TG_DB_QUERY', false], // undefined table
    ['22P02', 'TG_DB_QUERY', false], // invalid text representation
    ['25P02', 'TG_DB_QUERY', false], // in failed transaction
  ] as const)('%s -> %s (retryable %s)', (sqlstate, code, retryable) => {
    expect(codeForSqlState(sqlstate)).toBe(code);
    const e = toDbError(pgError('boom', sqlstate), ctx);
    expect(e).toBeInstanceOf(DbError);
    expect((e as DbError).code).toBe(code);
    expect((e as DbError).retryable).toBe(retryable);
    expect((e as DbError).details.sqlstate).toBe(sqlstate);
  });
});

describe('toDbError', () => {
  it('maps socket errors and node-postgres connection messages to a retryable TG_DB_UNAVAILABLE', () => {
    for (const e of [
      pgError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'),
      pgError('read ECONNRESET', 'ECONNRESET'),
      // Five capitals like a SQLSTATE, yet a socket error (seen when a COPY is cut by a server restart).
      pgError('write EPIPE', 'EPIPE'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ]) {
      const d = toDbError(e, ctx) as DbError;
      expect(d.code).toBe('TG_DB_UNAVAILABLE');
      expect(d.retryable).toBe(true);
      expect(d.message).toContain('PostgreSQL at h:5432/d');
    }
  });

  it('keeps the server detail in details and the message on one line', () => {
    const d = toDbError(
      pgError('duplicate key value violates unique constraint "t_pkey"\nsecond line', '23505', {
        detail: 'Key (id)=(1) already exists.',
        constraint: 't_pkey',
        table: 't',
      }),
      ctx,
    ) as DbError;
    expect(d.message).toBe('query failed: duplicate key value violates unique constraint "t_pkey" (SQLSTATE 23505)');
    expect(d.details).toMatchObject({ constraint: 't_pkey', table: 't', detail: 'Key (id)=(1) already exists.' });
    expect(d.details.sql).toBe('SELECT 1');
  });

  it('passes tongate errors through and wraps anything else as a non-retryable TG_DB_QUERY', () => {
    const own = new DbError('TG_DB_ENCODE', 'x');
    expect(toDbError(own, ctx)).toBe(own);
    const other = toDbError(new Error('weird'), ctx) as DbError;
    expect(other.code).toBe('TG_DB_QUERY');
    expect(other.retryable).toBe(false);
  });
});
