// The root command's subcommands are loaded lazily (src/cli/main.ts): `tongate --help` shows names and summaries
// written in main.ts, and each must be the loaded command's own, so the help is what it was with eager imports.
import { describe, expect, it } from 'vitest';
import { type Command, helpText, runCommand } from '../../src/cli/command.ts';
import { rootCommand } from '../../src/cli/main.ts';

const lazy = rootCommand.subcommands ?? [];

async function loaded(): Promise<Command[]> {
  return Promise.all(lazy.map((s) => ('load' in s ? s.load() : s)));
}

describe('the lazily loaded command tree', () => {
  it('names every command with the name and summary its module gives it', async () => {
    expect(lazy.length).toBeGreaterThan(0);
    const full = await loaded();
    for (const [i, s] of lazy.entries()) {
      expect('load' in s, `${s.name} is loaded lazily`).toBe(true);
      expect({ name: full[i]!.name, summary: full[i]!.summary }, s.name).toEqual({ name: s.name, summary: s.summary });
    }
    expect(helpText(rootCommand, ['tongate'])).toBe(helpText({ ...rootCommand, subcommands: full }, ['tongate']));
  });

  it("prints a lazy command's own help and runs it through the same runner", async () => {
    const full = await loaded();
    const decode = full.find((c) => c.name === 'decode')!;
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    expect(await runCommand(rootCommand, ['decode', '--help'], io)).toBe(0);
    expect(out.join('\n')).toBe(helpText(decode, ['tongate', 'decode']));
    expect(await runCommand(rootCommand, ['decode', '--bogus'], io)).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^tongate decode: /);
  });
});
