// Test-only: what the vectors' README (written by their collector, not by this codec) lists, so loops over
// vector files can assert how many times they ran without a count copied from our own output.
import { readFileSync } from 'node:fs';
import { vectorPath } from '../../test/helpers/vectors.ts';

/** The distinct `folder/*.json` files the README's tables name, e.g. readmeFiles('replay'). */
export function readmeFiles(folder: string): string[] {
  const readme = readFileSync(vectorPath('README.md'), 'utf8');
  const names = [...readme.matchAll(/`([a-z_-]+\/[^`/]+\.json)`/g)].map((m) => m[1]!);
  return [...new Set(names.filter((n) => n.startsWith(`${folder}/`)))].sort();
}
