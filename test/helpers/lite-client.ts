// An independent ton-lite-client connection to a liteserver on loopback (the tests' judge of what our servers
// answer), ready when this resolves. Close it with engine.close().
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';

export async function liteClientOn(
  port: number,
  publicKey: Buffer,
): Promise<{ engine: LiteSingleEngine; lite: LiteClient }> {
  const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey });
  engine.on('error', () => {});
  await new Promise((resolve) => engine.once('ready', resolve));
  return { engine, lite: new LiteClient({ engine, cacheMap: 0 }) };
}
