// A scratch PostgreSQL database for a bench: created under a random name on a server the bench is given, dropped
// (with its connections) when the bench is done.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ScratchPostgres {
  /** The database's name (`<prefix>_<8 hex digits>`). */
  name: string;
  /** The server's URL with the database's name as its path. */
  url: string;
  /** DROP DATABASE … WITH (FORCE): ends the connections still open on it. */
  drop(): Promise<void>;
}

/** Creates a database named `<prefix>_<random>` on the server at `serverUrl` (a URL of any of its databases). */
export async function createScratchPostgres(serverUrl: string, prefix: string): Promise<ScratchPostgres> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
