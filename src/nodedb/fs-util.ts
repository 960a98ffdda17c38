// Folder reads that treat "not there" as an answer: a node's tree grows while we read it, so a missing
// folder or file is a normal state (not yet created, or removed by gc), not an error.
import { readdir, stat } from 'node:fs/promises';

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** The names in `dir`, or none when it does not exist. */
export async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (e) {
    if (isMissing(e)) return [];
    throw e;
  }
}

export async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (e) {
    if (isMissing(e)) return false;
    throw e;
  }
}
