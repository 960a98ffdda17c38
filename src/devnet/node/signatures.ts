// The validator signatures of each masterchain block (what getBlockProof's forward links carry). The block itself
// keeps prev_blk_signatures empty, as the node's collator does, so the set the collator returned is kept beside the
// store: `<devnet>/signatures/<floor(seqno / 10000)>/<seqno>_<rootHash>.json`, written (temp name, rename) before
// the step commits, so a committed block always has its file unless the OS lost an unsynced write. Ed25519
// signatures are deterministic, so a missing file is recomputed from the validator key and the block header (the
// validator set hash and catchain seqno the header was signed under) and written again.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Cell } from '@ton/core';
import type { BlockSignatureSet } from '../../lite/index.ts';
import { type BlockIdExt, nodeIdShort } from '../../ton/index.ts';
import { signBlock, type ValidatorKey, viewBlockInfo } from '../chain/index.ts';

interface SignatureFile {
  format: 'tongate-devnet-signatures';
  seqno: number;
  rootHash: string;
  fileHash: string;
  validatorSetHash: number;
  catchainSeqno: number;
  signatures: Array<{ nodeIdShort: string; signature: string }>;
}

export interface SignatureStore {
  write(id: BlockIdExt, set: BlockSignatureSet): Promise<void>;
  /** The set of masterchain block `id` (its block root is needed only when the file must be recomputed). */
  read(id: BlockIdExt, blockRoot: () => Promise<Cell | null>): Promise<BlockSignatureSet | null>;
}

export function createSignatureStore(devnetDir: string, validator: ValidatorKey): SignatureStore {
  const pathOf = (id: BlockIdExt) =>
    join(
      devnetDir,
      'signatures',
      String(Math.floor(id.seqno / 10_000)),
      `${id.seqno}_${id.rootHash.toString('hex')}.json`,
    );

  async function write(id: BlockIdExt, set: BlockSignatureSet): Promise<void> {
    const file: SignatureFile = {
      format: 'tongate-devnet-signatures',
      seqno: id.seqno,
      rootHash: id.rootHash.toString('hex'),
      fileHash: id.fileHash.toString('hex'),
      validatorSetHash: set.validatorSetHash,
      catchainSeqno: set.catchainSeqno,
      signatures: set.signatures.map((s) => ({
        nodeIdShort: s.nodeIdShort.toString('hex'),
        signature: s.signature.toString('hex'),
      })),
    };
    const path = pathOf(id);
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${process.pid}`;
    await writeFile(tmp, JSON.stringify(file));
    await rename(tmp, path);
  }

  async function read(id: BlockIdExt, blockRoot: () => Promise<Cell | null>): Promise<BlockSignatureSet | null> {
    if (id.workchain !== -1 || id.seqno === 0) return null;
    try {
      const f = JSON.parse(await readFile(pathOf(id), 'utf8')) as SignatureFile;
      if (f.format === 'tongate-devnet-signatures' && f.fileHash === id.fileHash.toString('hex')) {
        return {
          validatorSetHash: f.validatorSetHash,
          catchainSeqno: f.catchainSeqno,
          signatures: f.signatures.map((s) => ({
            nodeIdShort: Buffer.from(s.nodeIdShort, 'hex'),
            signature: Buffer.from(s.signature, 'hex'),
          })),
        };
      }
    } catch {
      // missing or damaged: recomputed below
    }
    const root = await blockRoot();
    if (!root) return null;
    const info = viewBlockInfo(root);
    const set: BlockSignatureSet = {
      validatorSetHash: info.genValidatorListHashShort,
      catchainSeqno: info.genCatchainSeqno,
      signatures: [
        {
          nodeIdShort: nodeIdShort(validator.publicKey),
          signature: signBlock(validator.seed, id.rootHash, id.fileHash),
        },
      ],
    };
    await write(id, set).catch(() => {});
    return set;
  }

  return { write, read };
}
