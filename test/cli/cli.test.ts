// The CLI as users run it: a real child process through bin/tongate.js.
import { describe, expect, it } from 'vitest';
import { tongate } from '../helpers/cli.ts';

describe('tongate CLI', () => {
  it('prints help with every command, and --help on each command', () => {
    const top = tongate('--help');
    expect(top.code).toBe(0);
    expect(top.out).toMatch(/Usage: tongate <command>/);
    const commands = [...top.out.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1]!);
    expect(commands).toContain('decode');
    for (const c of commands) {
      const h = tongate(c, '--help');
      expect(h.code, c).toBe(0);
      expect(h.out, c).toMatch(new RegExp(`Usage: tongate ${c}`));
    }
  });

  it('prints help with no arguments (what npm start runs until the service exists)', () => {
    const r = tongate();
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Commands:/);
  });

  it('rejects unknown commands and options with one line and exit code 2', () => {
    const a = tongate('frobnicate');
    expect(a.code).toBe(2);
    expect(a.err.trim().split('\n')).toHaveLength(1);
    const b = tongate('decode', '--bogus', 'x');
    expect(b.code).toBe(2);
    expect(b.err.trim().split('\n')).toHaveLength(1);
  });
});
