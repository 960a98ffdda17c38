// Run by pool-lifecycle.test.ts in its own process, against servers that live in the parent process: drive a
// pool through failures (a refused port, a blackhole, a hung server, a server killed mid-run), close() it and
// simply end. A socket or a ref'd timer left behind by the pool would keep this process alive, because the
// parent keeps every server up until this process has exited.
import { createInterface } from 'node:readline';
import { createLitePool, type LiteServerEndpoint } from '../../src/lite/index.ts';

const raw = JSON.parse(process.env.POOL_EXIT_SERVERS ?? '[]') as Array<
  Omit<LiteServerEndpoint, 'publicKey'> & { key: string }
>;
const servers = raw.map(({ key, ...s }) => ({ ...s, publicKey: Buffer.from(key, 'hex') }));
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

const pool = createLitePool({
  servers,
  healthIntervalMs: 20,
  attemptTimeoutMs: 500,
  // A connect in flight cannot be cancelled through AdnlClient yet: close() leaves it to run out (see the report).
  connectTimeoutMs: 1000,
  reconnectMinMs: 10,
  reconnectMaxMs: 50,
});
await pool.ready({ timeoutMs: 30_000 });
for (let i = 0; i < 10; i++) await pool.getMasterchainInfo();
process.stdout.write('ready\n');
await lines.next(); // the parent has killed one server
for (let i = 0; i < 20; i++) await pool.getMasterchainInfo();
const parked = pool.getTime({ timeoutMs: 60_000 }).catch(() => 'failed');
await pool.close();
await parked;
process.stdin.destroy();
process.stdout.write('closed\n');
