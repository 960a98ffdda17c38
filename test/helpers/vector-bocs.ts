// Every BoC in the real-chain vectors (blocks, transactions, states, proofs, and the node-db packs' entries), with
// where it was found: the inputs the cell layer's tests compare implementations on.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadNodePackage, VECTORS_DIR } from './vectors.ts';

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonFiles(p));
    else if (name.endsWith('.json')) out.push(p);
  }
  return out;
}

/** Every string in a vector file that is a BoC (base64 or hex), with where it was found. */
function bocsIn(value: unknown, where: string, out: Array<{ where: string; bytes: Buffer }>): void {
  if (typeof value === 'string') {
    if (value.startsWith('te6') || value.startsWith('te0')) out.push({ where, bytes: Buffer.from(value, 'base64') });
    else if (/^b5ee9c72[0-9a-f]+$/i.test(value)) out.push({ where, bytes: Buffer.from(value, 'hex') });
  } else if (Array.isArray(value))
    value.forEach((v, i) => {
      bocsIn(v, `${where}[${i}]`, out);
    });
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) bocsIn(v, `${where}.${k}`, out);
  }
}

export function allBocs(): Array<{ where: string; bytes: Buffer }> {
  const out: Array<{ where: string; bytes: Buffer }> = [];
  for (const f of jsonFiles(VECTORS_DIR!))
    bocsIn(JSON.parse(readFileSync(f, 'utf8')), f.slice(VECTORS_DIR!.length + 1), out);
  for (const pack of readdirSync(join(VECTORS_DIR!, 'node-db')).filter((n) => n.endsWith('.pack'))) {
    for (const e of loadNodePackage(pack)) out.push({ where: `node-db/${pack}:${e.name}`, bytes: e.data });
  }
  return out;
}
