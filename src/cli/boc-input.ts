// Reads a BoC given on the command line: a file (binary BoC, or base64/hex text) or the text itself.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { type Cell, Cell as CellClass } from '@ton/core';
import { UsageError } from '../common/options.ts';

const BOC_MAGICS = ['b5ee9c72', '68ff65f3', 'acc3a728'];
const MAX_INPUT = 64 * 1024 * 1024;

function textToBytes(text: string): Buffer {
  const t = text.trim();
  if (t.length === 0) throw new UsageError('empty input: expected a BoC (file, base64 or hex)');
  if (/^[0-9a-fA-F]+$/.test(t) && t.length % 2 === 0 && BOC_MAGICS.some((m) => t.toLowerCase().startsWith(m))) {
    return Buffer.from(t, 'hex');
  }
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  throw new UsageError('input is neither a BoC file nor base64 or hex text');
}

export function readBocArgument(arg: string): Buffer {
  if (existsSync(arg) && statSync(arg).isFile()) {
    if (statSync(arg).size > MAX_INPUT) throw new UsageError(`${arg}: larger than ${MAX_INPUT} bytes`);
    const raw = readFileSync(arg);
    if (raw.length >= 4 && BOC_MAGICS.includes(raw.subarray(0, 4).toString('hex'))) return raw;
    return textToBytes(raw.toString('utf8'));
  }
  return textToBytes(arg);
}

export function parseBocArgument(arg: string): Cell[] {
  const bytes = readBocArgument(arg);
  if (bytes.length < 4 || !BOC_MAGICS.includes(bytes.subarray(0, 4).toString('hex'))) {
    throw new UsageError('not a BoC: the bytes do not start with a BoC magic (b5ee9c72)');
  }
  try {
    return CellClass.fromBoc(bytes);
  } catch (e) {
    throw new UsageError(`not a valid BoC: ${(e as Error).message}`);
  }
}
