// A devnet node in its own process, for the kill -9 test: prints one JSON line when it serves, then one per
// committed step; runs until killed.  node --import tsx node-child.ts <dataDir> <blockIntervalMs>
import { createDevnetNode } from '../../src/devnet/node/index.ts';

const [dataDir, interval] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: node-child.ts <dataDir> <blockIntervalMs>');
const node = createDevnetNode({ dataDir, litePort: 0, blockIntervalMs: Number(interval ?? 50), seed: 'node-restart' });
node.onBlock((e) => process.stdout.write(`${JSON.stringify({ committed: e.mcSeqno })}\n`));
const info = await node.start();
process.stdout.write(
  `${JSON.stringify({ ready: { litePort: info.litePort, publicKey: info.liteServerPublicKey.toString('hex') } })}\n`,
);
