import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactJson, redactUrl } from './redact.ts';

describe('redaction by parsed parameter', () => {
  it('hides a secret query value however its name is spelled or encoded', () => {
    for (const name of ['api_key', 'API_KEY', 'api%5Fkey', 'api%5fkey', '%61pi_key', 'apikey', 'api_key%20']) {
      const out = redactUrl(`/api/v2/getMasterchainInfo?a=1&${name}=s3cr3t&b=2#frag`);
      expect(out, name).not.toContain('s3cr3t');
      expect(out).toBe(`/api/v2/getMasterchainInfo?a=1&${name}=${REDACTED}&b=2#frag`);
    }
  });

  it('keeps everything else byte for byte, including undecodable text', () => {
    for (const url of ['/api/v3/blocks', '/x?a=%ZZ&b', '/x?api_keys=1&my_api_key=2', '/x?&&=', '/x?a=b=c']) {
      expect(redactUrl(url)).toBe(url);
    }
    expect(redactUrl('/x?api_key')).toBe(`/x?api_key=${REDACTED}`);
    expect(redactUrl('/x?api_key=a&api_key=b')).toBe(`/x?api_key=${REDACTED}&api_key=${REDACTED}`);
  });

  it('hides secret headers and JSON fields at any depth', () => {
    expect(redactHeaders({ 'X-API-Key': 'k', Authorization: 'Bearer k', accept: '*/*' })).toEqual({
      'X-API-Key': REDACTED,
      Authorization: REDACTED,
      accept: '*/*',
    });
    expect(redactJson({ method: 'm', params: { api_key: 'k', list: [{ Api_Key: 'k', x: 1 }] } })).toEqual({
      method: 'm',
      params: { api_key: REDACTED, list: [{ Api_Key: REDACTED, x: 1 }] },
    });
    let deep: unknown = { api_key: 'k' };
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect(JSON.stringify(redactJson(deep))).not.toContain('"k"');
  });
});
