// One log format for every command: pino's JSON lines on the error stream (level as its name, ISO time, pid), the
// form log shippers read; on a terminal the same records as one readable line each (`time level message key=value`).
// The terminal form is a few lines here rather than pino-pretty: it keeps the CLI's start-up and dependencies small,
// and it is the line format the commands already printed for people.
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Log, LogLevel } from '../common/logger.ts';

export interface CliLoggerOptions {
  level: LogLevel | 'silent';
  /** Where lines go (default the process's error stream). */
  write?: (line: string) => void;
  /** Readable lines instead of JSON (default: when the error stream is a terminal). */
  pretty?: boolean;
}

function fieldText(v: unknown): string {
  if (typeof v === 'string') return /\s/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/** A JSON record as one readable line: time (HH:MM:SS.mmm), level, message, the other fields as key=value. */
export function readableLine(json: string): string {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { time, level, msg, pid: _pid, err, ...rest } = r;
  const t = typeof time === 'string' ? time.slice(11, 23) : '';
  const kv = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${fieldText(v)}`)
    .join(' ');
  // An error object (pino's err serializer) ends the line with its stack; any other err value is a field.
  const e = typeof err === 'object' && err !== null ? (err as { stack?: string; message?: string }) : undefined;
  const stack = err === undefined ? '' : e?.stack ? `\n${e.stack}` : ` err=${fieldText(e?.message ?? err)}`;
  return `${t} ${String(level).padEnd(5)} ${String(msg ?? '')}${kv ? ` ${kv}` : ''}${stack}`;
}

export function cliLogger(opts: CliLoggerOptions): Logger {
  const pretty = opts.pretty ?? process.stderr.isTTY === true;
  const write = opts.write;
  let dest: DestinationStream;
  if (pretty) {
    const out = write ?? ((l: string) => process.stderr.write(`${l}\n`));
    dest = { write: (chunk: string) => out(readableLine(chunk.trimEnd())) };
  } else if (write) {
    dest = { write: (chunk: string) => write(chunk.trimEnd()) };
  } else {
    dest = pino.destination({ dest: 2, sync: true });
  }
  return pino(
    {
      level: opts.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: pino.stdSerializers.err },
    },
    dest,
  );
}

/** The Log call over a logger. Bigints become decimal text (JSON has no bigint). */
export function logTo(logger: Logger): Log {
  return (level, msg, fields) => {
    if (!fields) {
      logger[level](msg);
      return;
    }
    const clean: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(fields)) {
      clean[k] = typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? v.toString('hex') : v;
    }
    logger[level](clean, msg);
  };
}

/** The commands' log: JSON lines on the error stream, readable lines on a terminal. */
export function createLog(write: (line: string) => void, minLevel: 'debug' | 'info' = 'info'): Log {
  return logTo(cliLogger({ level: minLevel, write }));
}
