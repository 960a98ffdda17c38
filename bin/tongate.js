#!/usr/bin/env node
// The CLI runs our TypeScript sources through tsx's loader, so `npx tongate` works right after
// `npm ci` with no build step and no stale output to go wrong.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
