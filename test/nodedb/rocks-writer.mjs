// A RocksDB primary in its own process, for test/nodedb/rocks.test.ts: plays the TON node that writes a folder
// while tongate reads it. Commands arrive as JSON lines on stdin; each gets one JSON line back on stdout.
//   {"cmd":"open","path":...,"manualWalFlush":bool,"mergeOperator":bool}
//   {"cmd":"write","ops":[[kind,keyHex,valueHex|null],...],"sync":bool}   kind: 0 put, 1 merge, 2 delete
//   {"cmd":"flushWal","sync":bool}   {"cmd":"flushMemtable"}   {"cmd":"close"}
// Replies: {"ok":true} or {"ok":false,"error":"..."}. It loads the addon directly: no TypeScript loader needed.
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const addon = createRequire(import.meta.url)(process.argv[2]);
let db = null;

function run(msg) {
  switch (msg.cmd) {
    case 'open':
      db = addon.open(msg.path, {
        mode: 'primary',
        createIfMissing: true,
        manualWalFlush: msg.manualWalFlush,
        mergeOperator: msg.mergeOperator,
      });
      return;
    case 'write':
      addon.write(
        db,
        msg.ops.map(([kind, key, value]) => [
          kind,
          Buffer.from(key, 'hex'),
          value === null ? null : Buffer.from(value, 'hex'),
        ]),
        msg.sync,
      );
      return;
    case 'flushWal':
      addon.flushWal(db, msg.sync);
      return;
    case 'flushMemtable':
      addon.flushMemtable(db);
      return;
    case 'close':
      addon.close(db);
      return;
    default:
      throw new Error(`unknown command ${msg.cmd}`);
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let reply;
  try {
    run(JSON.parse(line));
    reply = { ok: true };
  } catch (e) {
    reply = { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
});
