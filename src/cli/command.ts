// A small command tree over node:util parseArgs: every command and subcommand gets `--help`,
// usage errors print one line and exit 2, and no stack trace ever reaches the user.
import { parseArgs } from 'node:util';
import { UsageError } from '../common/options.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  description: string;
  default?: string | boolean;
  /** Placeholder shown in help, e.g. FILE. */
  value?: string;
}

export interface Command {
  name: string;
  summary: string;
  /** Positional arguments as shown in usage, e.g. "<file.boc|base64>". */
  args?: string;
  details?: string;
  options?: Record<string, OptionSpec>;
  subcommands?: (Command | LazyCommand)[];
  run?: (ctx: RunContext) => Promise<number> | number;
}

/**
 * A subcommand whose module is imported only when it is the one chosen: its parent's help needs just the name and
 * summary (which must be the loaded command's own), so `tongate --help` loads none of the command modules.
 */
export interface LazyCommand {
  name: string;
  summary: string;
  load: () => Promise<Command>;
}

export interface RunContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

const defaultIo: Io = {
  out: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`${l}\n`),
};

export function helpText(cmd: Command, path: string[]): string {
  const full = path.join(' ');
  const lines: string[] = [];
  const usageTail = cmd.subcommands ? ' <command>' : '';
  lines.push(`Usage: ${full}${usageTail}${cmd.options ? ' [options]' : ''}${cmd.args ? ` ${cmd.args}` : ''}`);
  lines.push('', cmd.summary);
  if (cmd.details) lines.push('', cmd.details);
  if (cmd.subcommands) {
    lines.push('', 'Commands:');
    const w = Math.max(...cmd.subcommands.map((s) => s.name.length));
    for (const s of cmd.subcommands) lines.push(`  ${s.name.padEnd(w)}  ${s.summary}`);
    lines.push('', `Run '${full} <command> --help' for a command's options.`);
  }
  const opts = Object.entries(cmd.options ?? {});
  lines.push('', 'Options:');
  const rows = opts.map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
    const def = o.default !== undefined && o.default !== false ? ` (default: ${String(o.default)})` : '';
    return [flag, `${o.description}${def}`] as const;
  });
  rows.push(['-h, --help', 'show this help']);
  const w = Math.max(...rows.map((r) => r[0].length));
  for (const [f, d] of rows) lines.push(`  ${f.padEnd(w)}  ${d}`);
  return lines.join('\n');
}

export async function runCommand(root: Command, argv: string[], io: Io = defaultIo): Promise<number> {
  let cmd = root;
  const path = [root.name];
  let rest = argv;
  while (cmd.subcommands && rest.length > 0 && !rest[0]!.startsWith('-')) {
    const next = cmd.subcommands.find((s) => s.name === rest[0]);
    if (!next) {
      io.err(`${path.join(' ')}: unknown command '${rest[0]}' (see '${path.join(' ')} --help')`);
      return 2;
    }
    cmd = 'load' in next ? await next.load() : next;
    path.push(next.name);
    rest = rest.slice(1);
  }
  const optionsConfig: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, o] of Object.entries(cmd.options ?? {})) {
    optionsConfig[name] = o.short ? { type: o.type, short: o.short } : { type: o.type };
  }
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: optionsConfig, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (e) {
    io.err(`${path.join(' ')}: ${(e as Error).message.split('\n')[0]} (see '${path.join(' ')} --help')`);
    return 2;
  }
  if (parsed.values.help || !cmd.run) {
    if (!parsed.values.help && cmd.subcommands && parsed.positionals.length === 0 && rest.length > 0) {
      io.err(`${path.join(' ')}: expected a command (see '${path.join(' ')} --help')`);
      return 2;
    }
    io.out(helpText(cmd, path));
    return 0;
  }
  const values = { ...parsed.values };
  for (const [name, o] of Object.entries(cmd.options ?? {})) {
    if (values[name] === undefined && o.default !== undefined) values[name] = o.default;
  }
  try {
    return await cmd.run({ values, positionals: parsed.positionals, out: io.out, err: io.err });
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`${path.join(' ')}: ${e.message}`);
      return 2;
    }
    io.err(`${path.join(' ')}: failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}
