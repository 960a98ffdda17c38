// One log line per event on the CLI's error stream: time, level, message, key=value fields. Shared by the
// long-running commands (devnet, devnet activity), so their output reads the same.

function fieldText(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return v.toString('hex');
  if (typeof v === 'string') return /\s/.test(v) ? JSON.stringify(v) : v;
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

export function lineLog(
  verbose: boolean,
  err: (line: string) => void,
): (level: string, msg: string, fields?: Record<string, unknown>) => void {
  return (level, msg, fields) => {
    if (level === 'debug' && !verbose) return;
    const kv = Object.entries(fields ?? {})
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${fieldText(v)}`)
      .join(' ');
    err(`${new Date().toISOString()} ${level.padEnd(5)} ${msg}${kv ? ` ${kv}` : ''}`);
  };
}
