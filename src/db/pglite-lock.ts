// The lock file that keeps a PGlite directory to one opener: PGlite itself does not stop two processes (or two
// instances in one process) from opening one directory, which corrupts it.
import { open, readFile, unlink } from 'node:fs/promises';
import { DbError } from '../common/index.ts';

/** Directories opened by this process: a second PGlite instance on one directory corrupts it too. */
const openHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedError(dir: string, lockPath: string, pid: number | undefined): DbError {
  const by = pid === process.pid ? 'this process' : pid === undefined ? 'another process' : `process ${pid}`;
  return new DbError(
    'TG_DB_LOCKED',
    `PGlite at ${dir} is open in ${by} (lock file ${lockPath}); PGlite allows one process per directory: stop it, or give this one its own --data or a DATABASE_URL`,
    { details: { dir, lockPath, pid } },
  );
}

/** Takes the lock: a file beside the directory holding the owner's pid; a lock whose process is gone is taken over. */
export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const lockPath = `${dir}.lock`;
  if (openHere.has(dir)) throw lockedError(dir, lockPath, process.pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(lockPath, 'wx');
      try {
        await fh.writeFile(`${process.pid}\n`);
      } finally {
        await fh.close();
      }
      openHere.add(dir);
      return async () => {
        openHere.delete(dir);
        await unlink(lockPath).catch(() => {});
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number.parseInt(await readFile(lockPath, 'utf8').catch(() => ''), 10);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw lockedError(dir, lockPath, pid);
      }
      await unlink(lockPath).catch(() => {});
    }
  }
  throw lockedError(dir, lockPath, undefined);
}
