// Real chain data lives outside the repo (../shared/vectors or $TONGATE_VECTORS). Tests that need it
// are skipped, loudly, when it is absent; .ci/run refuses to run without it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function locate(): string | undefined {
  const candidates = [process.env.TONGATE_VECTORS, join(repoRoot, '..', 'shared', 'vectors')];
  for (const c of candidates) if (c && existsSync(join(c, 'README.md'))) return resolve(c);
  return undefined;
}

export const VECTORS_DIR = locate();
export const hasVectors = VECTORS_DIR !== undefined;
if (!hasVectors) {
  process.stderr.write(
    'tongate tests: real-chain vectors not found (set TONGATE_VECTORS or place shared/vectors beside the repo); ' +
      'vector tests are SKIPPED\n',
  );
}

export function vectorPath(...parts: string[]): string {
  if (!VECTORS_DIR) throw new Error('vectors are absent');
  return join(VECTORS_DIR, ...parts);
}

/** All JSON vector files in one folder of the vectors tree, parsed, with their file names. */
export function loadVectors<T = Record<string, unknown>>(folder: string): Array<{ file: string; data: T }> {
  if (!VECTORS_DIR) return [];
  const dir = join(VECTORS_DIR, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, data: JSON.parse(readFileSync(join(dir, file), 'utf8')) as T }));
}

export function loadVector<T = Record<string, unknown>>(...parts: string[]): T {
  return JSON.parse(readFileSync(vectorPath(...parts), 'utf8')) as T;
}

export interface NodePackageEntry {
  name: string;
  data: Buffer;
}

/**
 * The entries of a node archive package in vectors/node-db (`archive.00000.pack`, ...): u32 magic 0xae8fdd01,
 * then entries of u16 0x1e8b, u16 name length, u32 data length (little-endian), the name, the data. Each
 * entry's data is a copy, so keeping a few blocks does not pin the whole package.
 */
export function loadNodePackage(pack: string): NodePackageEntry[] {
  const path = vectorPath('node-db', pack);
  const d = readFileSync(path);
  if (d.readUInt32LE(0) !== 0xae8fdd01) throw new Error(`${path}: not a package file`);
  const out: NodePackageEntry[] = [];
  let p = 4;
  while (p < d.length) {
    if (d.readUInt16LE(p) !== 0x1e8b) throw new Error(`${path}: bad entry magic at ${p}`);
    const nameLen = d.readUInt16LE(p + 2);
    const dataLen = d.readUInt32LE(p + 4);
    p += 8;
    const name = d.subarray(p, p + nameLen).toString('utf8');
    p += nameLen;
    out.push({ name, data: Buffer.from(d.subarray(p, p + dataLen)) });
    p += dataLen;
  }
  return out;
}

/** The shared reference folder (specs, schemas, vectors): the parent of the vectors folder. */
export const SHARED_DIR = VECTORS_DIR ? resolve(VECTORS_DIR, '..') : undefined;

export function sharedPath(...parts: string[]): string {
  if (!SHARED_DIR)
    throw new Error('the shared folder is absent (set TONGATE_VECTORS or place shared/ beside the repo)');
  return join(SHARED_DIR, ...parts);
}
