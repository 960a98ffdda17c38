// `tongate decode`: raw chain data (a BoC) to readable JSON, for operators and analysts.
import { createHash } from 'node:crypto';
import { type Cell, CellType, loadAccount } from '@ton/core';
import { UsageError } from '../common/options.ts';
import {
  blockId,
  listBlockTransactions,
  loadBlockCell,
  loadShardState,
  type MessageView,
  messageFromCell,
  messageTexts,
  messageView,
  type TransactionView,
  transactionFromCell,
  transactionView,
} from '../ton/index.ts';
import { parseBocArgument, readBocArgument } from './boc-input.ts';
import type { Command } from './command.ts';
import { toJsonText } from './json.ts';

const KINDS = ['block', 'tx', 'account', 'message', 'state'] as const;
type Kind = (typeof KINDS)[number];

const BLOCK_TAG = 0x11ef55aa;
const STATE_TAGS = [0x9023afe2, 0x5f327da5];

/** Guesses the type from the constructor tag; accounts and messages have no tag of their own. */
function detectKind(cell: Cell): Kind {
  const s = cell.beginParse(true);
  if (s.remainingBits >= 32) {
    const tag = s.preloadUint(32);
    if (tag === BLOCK_TAG) return 'block';
    if (STATE_TAGS.includes(tag)) return 'state';
  }
  if (s.remainingBits >= 4 && s.preloadUint(4) === 0b0111) return 'tx';
  try {
    messageFromCell(cell);
    return 'message';
  } catch {
    return 'account';
  }
}

/** A message as printed: its view and what its body says as text. */
const printedMessage = (v: MessageView) => ({ ...v, ...messageTexts(v) });

/** A transaction as printed: its messages with their texts. */
const printedTransaction = (v: TransactionView) => ({
  ...v,
  inMsg: v.inMsg ? printedMessage(v.inMsg) : null,
  outMsgs: v.outMsgs.map(printedMessage),
});

function decodeBlock(cell: Cell, bytes: Buffer) {
  const block = loadBlockCell(cell);
  const workchain = block.info.shard.workchainId;
  const txs = listBlockTransactions(block).map((t) =>
    printedTransaction(transactionView(transactionFromCell(t.cell), { workchain })),
  );
  const id = blockId(block, cell.hash(), createHash('sha256').update(bytes).digest());
  return {
    type: 'block',
    // Shard ids are read as hex everywhere in TON tooling (8000000000000000), not as decimals.
    id: { ...id, shard: id.shard.toString(16).padStart(16, '0') },
    global_id: block.globalId,
    info: block.info,
    value_flow: block.valueFlow,
    state_update: { old_hash: block.stateUpdate.oldHash, new_hash: block.stateUpdate.newHash },
    rand_seed: block.extra.randSeed,
    created_by: block.extra.createdBy,
    mc_block_extra: block.extra.custom ?? null,
    transactions: txs,
  };
}

function decode(kind: Kind, cell: Cell, bytes: Buffer, workchain: number): unknown {
  switch (kind) {
    case 'block':
      return decodeBlock(cell, bytes);
    case 'tx':
      return { type: 'transaction', ...printedTransaction(transactionView(transactionFromCell(cell), { workchain })) };
    case 'message':
      return { type: 'message', ...printedMessage(messageView(messageFromCell(cell))) };
    case 'account':
      return { type: 'account', cell_hash: cell.hash(), account: loadAccount(cell.beginParse()) };
    case 'state':
      return { type: 'shard_state', cell_hash: cell.hash(), state: loadShardState(cell.beginParse()) };
  }
}

export const decodeCommand: Command = {
  name: 'decode',
  summary: 'Decode a BoC (block, transaction, account, message or shard state) and print it as JSON.',
  args: '<file.boc|base64|hex>',
  details:
    'The argument is a file (binary BoC, or base64/hex text) or the BoC itself as base64 or hex.\n' +
    'Without --as the type is guessed from its constructor tag. A Merkle proof is decoded through to\n' +
    'the tree it proves. Hashes are hex, 64-bit numbers decimal strings, addresses raw (wc:hex).',
  options: {
    as: { type: 'string', value: 'TYPE', description: `what the BoC holds: ${KINDS.join(' | ')}` },
    workchain: {
      type: 'string',
      value: 'WC',
      description: 'workchain of a lone transaction (its cell holds only the account id)',
      default: '0',
    },
  },
  run({ values, positionals, out }) {
    if (positionals.length !== 1) throw new UsageError('expected exactly one BoC argument');
    const as = values.as as string | undefined;
    if (as !== undefined && !(KINDS as readonly string[]).includes(as)) {
      throw new UsageError(`--as must be one of ${KINDS.join(', ')}; got '${as}'`);
    }
    const workchain = Number(values.workchain);
    if (!Number.isInteger(workchain) || workchain < -128 || workchain > 127) {
      throw new UsageError(`--workchain must be an integer in -128..127; got '${values.workchain}'`);
    }
    const arg = positionals[0]!;
    const roots = parseBocArgument(arg);
    const bytes = readBocArgument(arg);
    const decoded = roots.map((root) => {
      // A Merkle proof's content is its first ref, read as the tree it proves.
      const cell = root.type === CellType.MerkleProof ? root.refs[0]! : root;
      const kind = (as as Kind | undefined) ?? detectKind(cell);
      try {
        const value = decode(kind, cell, bytes, workchain);
        return root === cell ? value : { merkle_proof: { proven_hash: cell.hash(0) }, ...(value as object) };
      } catch (e) {
        throw new UsageError(`not a valid ${kind}: ${(e as Error).message.split('\n')[0]}`);
      }
    });
    out(toJsonText(decoded.length === 1 ? decoded[0] : decoded));
    return 0;
  },
};
