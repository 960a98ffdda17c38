// Reading a command's option values (node:util parseArgs gives strings and booleans): bad input is a UsageError,
// which a command reports on one line and exits with 2 (src/common/exit-codes.ts).

/** Thrown for bad input: the message is printed on one line and the process exits with 2. */
export class UsageError extends Error {}

/** A command's parsed option values. */
export type Values = Record<string, string | boolean | undefined>;

/** The trimmed text of option `--name`; undefined when not given or blank. */
export function str(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

export interface IntRange {
  /** Default 0. */
  min?: number;
  /** Default 2^32 - 1. */
  max?: number;
  /**
   * The value as given (not trimmed; blank is bad input) and bad input as one sentence, "--NAME must be an integer
   * in MIN..MAX; got 'V'" (the devnet, keys and queue commands); otherwise "--NAME expects a whole number" or
   * "--NAME must be between MIN and MAX".
   */
  interval?: boolean;
}

/** The whole number given as option `--name` (decimal digits only), in min..max; undefined when not given. */
export function intOption(values: Values, name: string, range: IntRange = {}): number | undefined {
  const min = range.min ?? 0;
  const max = range.max ?? 0xffffffff;
  if (range.interval) {
    const v = values[name];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (typeof v !== 'string' || !/^\d+$/.test(v) || n < min || n > max) {
      throw new UsageError(`--${name} must be an integer in ${min}..${max}; got '${String(v)}'`);
    }
    return n;
  }
  const v = str(values, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} expects a whole number, got '${v}'`);
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be between ${min} and ${max}, got ${v}`);
  }
  return n;
}
