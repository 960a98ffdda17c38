// A child process for the store's crash and reader tests: opens the store, writes the genesis if the store is
// empty, then commits the node-db chain's steps after the head, one by one, printing a line per commit.
//   node --import tsx store-step-writer.ts <storeDir> <plan.json> [--pace <ms>] [--until <mcSeqno>]
//     [--prefetch <steps>] [--die-at files-written|batch-written [--die-after <n>]]
// The plan comes from loadNodeDbChain() in the parent; this process decodes only the steps it writes.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDevnetStore } from '../../src/devnet/store/index.ts';
import { type ChainPlan, genesisOf, materializeStep, readNodeDbBlocks } from './store-chain.ts';

async function main(): Promise<void> {
  const [dir, planPath, ...rest] = process.argv.slice(2);
  if (!dir || !planPath)
    throw new Error('usage: store-step-writer.ts <storeDir> <plan.json> [--pace ms] [--until seqno]');
  const opt = (name: string): number | undefined => {
    const i = rest.indexOf(name);
    return i >= 0 ? Number(rest[i + 1]) : undefined;
  };
  const pace = opt('--pace') ?? 0;
  const until = opt('--until') ?? Number.MAX_SAFE_INTEGER;
  const prefetch = opt('--prefetch') ?? 0;
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as ChainPlan;
  const blocks = readNodeDbBlocks();
  // --die-at <phase> --die-after <n>: SIGKILL this process at that phase of the n-th commit of this run.
  const dieAt = rest.includes('--die-at') ? rest[rest.indexOf('--die-at') + 1] : undefined;
  let dieAfter = opt('--die-after') ?? 1;
  const store = await openDevnetStore(dir, {
    onCommitPhase: (phase) => {
      if (phase === dieAt && --dieAfter === 0) process.kill(process.pid, 'SIGKILL');
    },
  });
  if (!store.head()) {
    const { mcZeroState } = genesisOf(plan, blocks);
    await store.commitGenesis({
      meta: { seed: 'step-writer', globalId: -239, shardLayout: [0x8000000000000000n], genesisUtime: 0 },
      mcZeroState: { boc: mcZeroState },
      wcZeroStates: [],
    });
  }
  let i = plan.steps.findIndex((s) => Number(/^block_\(-1,[0-9a-f]+,(\d+)\)/.exec(s.mc)![1]) > store.head()!.mcSeqno);
  // Decode the first steps before announcing readiness, so a kill soon after lands inside commits.
  const ready = new Map<number, ReturnType<typeof materializeStep>>();
  for (let j = i; j >= 0 && j < Math.min(i + prefetch, plan.steps.length); j++)
    ready.set(j, materializeStep(plan, blocks, j));
  process.stdout.write(`ready ${store.head()!.mcSeqno}\n`);
  while (i >= 0 && i < plan.steps.length) {
    const step = ready.get(i) ?? materializeStep(plan, blocks, i);
    ready.delete(i++);
    if (step.mc.id.seqno > until) break;
    const head = await store.commitStep({
      mcBlock: { boc: step.mc.boc, state: step.mc.newState, accounts: step.mc.accounts },
      shardBlocks: step.shards.map((b) => ({ boc: b.boc, state: b.newState, accounts: b.accounts })),
    });
    process.stdout.write(`committed ${head.mcSeqno}\n`);
    if (pace > 0) await sleep(pace);
  }
  await store.close();
  process.stdout.write('done\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
