// Test-only (not exported from index.ts): finds every ConfigParams dictionary in the real-chain vectors.
// A config dictionary arrives in four shapes: a bare dictionary root, a ConfigParams cell
// (config_addr + ^dict), a masterchain state (or a Merkle proof of one) whose McStateExtra holds
// ConfigParams, and a raw liteServer.configInfo TL answer carrying such a proof.
import { Cell } from '@ton/core';
import { loadVector, loadVectors } from '../../../test/helpers/vectors.ts';

export type ConfigVector = {
  name: string;
  network: 'mainnet' | 'testnet';
  /** Root of the `Hashmap 32 ^Cell`. */
  dict: Cell;
  /** For proofs: the hash the Merkle proof proves (the masterchain state hash). */
  provenStateHash?: Buffer;
  /** The source JSON. */
  data: VectorJson;
};

export type VectorJson = {
  network: string;
  boc_base64: string;
  ids: Record<string, unknown>;
  expected: Record<string, unknown>;
  verification: Record<string, unknown>;
  response_hex?: string;
};

/** McStateExtra (block.tlb:574) -> ConfigParams -> the dictionary root. */
function dictFromState(state: Cell): Cell {
  const s = state.beginParse();
  if (s.loadUint(32) !== 0x9023afe2) throw new Error('not a ShardStateUnsplit');
  const custom = state.refs[3];
  if (!custom) throw new Error('ShardStateUnsplit without McStateExtra');
  const e = custom.beginParse();
  if (e.loadUint(16) !== 0xcc26) throw new Error('not a McStateExtra');
  if (e.loadBit()) e.loadRef(); // shard_hashes
  e.loadBuffer(32); // config_addr
  return e.loadRef();
}

/** liteServer.configInfo mode:# id:tonNode.blockIdExt state_proof:bytes config_proof:bytes (TL, little endian). */
function configProofFromTl(bytes: Buffer): Buffer {
  let off = 4 + 4 + 80; // constructor, mode, blockIdExt (4 + 8 + 4 + 32 + 32)
  const readBytes = (): Buffer => {
    let len = bytes[off]!;
    let head = 1;
    if (len === 0xfe) {
      len = bytes.readUIntLE(off + 1, 3);
      head = 4;
    }
    const out = bytes.subarray(off + head, off + head + len);
    off += Math.ceil((head + len) / 4) * 4;
    return out;
  };
  readBytes(); // state_proof
  return readBytes();
}

export function configVectors(): ConfigVector[] {
  const out: ConfigVector[] = [];
  for (const { file, data } of loadVectors<VectorJson>('config')) {
    const name = file.replace(/\.json$/, '');
    const network = data.network === 'testnet' ? 'testnet' : 'mainnet';
    const root = Cell.fromBase64(data.boc_base64);
    if (name.startsWith('config_dict_')) {
      out.push({ name, network, dict: root, data });
    } else if (name.startsWith('config_params_')) {
      out.push({ name, network, dict: root.refs[0]!, data });
    } else if (name.startsWith('config_proof_')) {
      const state = root.refs[0]!;
      out.push({ name, network, dict: dictFromState(state), provenStateHash: state.hash(0), data });
    } else if (name.startsWith('config_state_')) {
      out.push({ name, network, dict: dictFromState(root), data });
    }
  }
  const ls = loadVector<VectorJson>('liteserver', 'get_config_all_tongo.json');
  const proof = Cell.fromBoc(configProofFromTl(Buffer.from(ls.response_hex!, 'hex')))[0]!;
  const state = proof.refs[0]!;
  out.push({
    name: 'get_config_all_tongo',
    network: 'mainnet',
    dict: dictFromState(state),
    provenStateHash: state.hash(0),
    data: ls,
  });
  return out;
}
