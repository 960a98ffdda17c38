// liteServer.sendMessage's check, as the node's ExtMessageQ::check and run_message_on_account do it: the BoC must be
// one inbound external message to a known workchain; it is then run on a copy of its destination account as of the
// newest published state, and refused with the emulator's reason when the account does not accept it. The
// dispatcher prefixes the reason with "cannot apply external message to current state : ".
import { createHash } from 'node:crypto';
import { type Address, beginCell, type Cell } from '@ton/core';
import { LiteServerError } from '../../common/errors.ts';
import { messageFromCell, msgAddressToAddress, parseBoc } from '../../ton/index.ts';
import type { TvmRunner } from '../../tvm/index.ts';
import { type ChainTop, viewMc } from '../chain/index.ts';
import type { DevnetStore } from '../store/index.ts';
import type { PrevBlocksSource } from './prev-blocks.ts';

/** The node's max_ext_msg_size (validator/impl/external-message.hpp). */
export const MAX_EXTERNAL_BYTES = 65_535;
/** td::Status::Error without a code: what a node's sendMessage refusal carries (tonlib: LITE_SERVER_UNKNOWN). */
export const EXTERNAL_REFUSED_CODE = 0;
const LT_ALIGN = 1_000_000n;

export interface CheckedExternal {
  cell: Cell;
  hash: Buffer;
  destination: Address;
}

export interface ExternalCheckDeps {
  store: DevnetStore;
  tvm: TvmRunner;
  prevBlocks: PrevBlocksSource;
}

function refuse(message: string): LiteServerError {
  return new LiteServerError(EXTERNAL_REFUSED_CODE, message);
}

/** account_none with zero last transaction: what the emulator runs a message to a new address on. */
export function emptyShardAccount(): Cell {
  return beginCell()
    .storeRef(beginCell().storeBit(false).endCell())
    .storeBuffer(Buffer.alloc(32))
    .storeUint(0, 64)
    .endCell();
}

/** Parses and checks the shape of an external message; no emulation. */
export function parseExternal(boc: Buffer): CheckedExternal {
  if (boc.length > MAX_EXTERNAL_BYTES) {
    throw refuse(`external message too large (${boc.length} bytes, at most ${MAX_EXTERNAL_BYTES})`);
  }
  let roots: Cell[];
  try {
    roots = parseBoc(boc);
  } catch (e) {
    throw refuse(`cannot deserialize external message: ${(e as Error).message}`);
  }
  const [cell] = roots;
  if (roots.length !== 1 || !cell) throw refuse(`external message must be a BoC with one root, got ${roots.length}`);
  let info: ReturnType<typeof messageFromCell>['info'];
  try {
    info = messageFromCell(cell).info;
  } catch (e) {
    throw refuse(`invalid external message: ${(e as Error).message}`);
  }
  if (info.kind !== 'ext_in_msg_info') throw refuse('external message must begin with ext_in_msg_info$10');
  const destination = msgAddressToAddress(info.dest);
  if (!destination) throw refuse('destination of an inbound external message is not a valid address');
  if (destination.workChain !== 0 && destination.workChain !== -1) {
    throw refuse(
      `destination of an inbound external message is in workchain ${destination.workChain}, which does not exist`,
    );
  }
  return { cell, hash: cell.hash(), destination };
}

/** Runs the message on its account as of `mc` (the newest published masterchain block); throws the node's refusal. */
export async function checkExternal(
  deps: ExternalCheckDeps,
  ext: CheckedExternal,
  mc: ChainTop,
  now: number,
): Promise<void> {
  const view = viewMc(mc);
  const stored = await deps.store.account(ext.destination);
  const shardAccount = stored?.shardAccount ?? emptyShardAccount();
  const r = await deps.tvm.runTransaction({
    shardAccount,
    message: ext.cell,
    now: Math.max(now, view.genUtime),
    // Past everything committed; the emulator raises it to the account's own last lt if that is higher.
    lt: (view.lt / LT_ALIGN + 2n) * LT_ALIGN,
    randomSeed: createHash('sha256').update('tongate-devnet external check').update(ext.hash).digest(),
    config: view.extra.config.config,
    libs: view.state.r1.libraries,
    prevBlocksInfo: await deps.prevBlocks.of(mc),
  });
  if (r.ok) return;
  const account = ext.destination.hash.toString('hex').toUpperCase();
  const exit = r.exitCode === null ? r.error : `exitcode=${r.exitCode}`;
  throw refuse(
    `External message was not accepted\nCannot run message on account: inbound external message rejected by transaction ${account}:\n${exit} (${r.error})`,
  );
}
