// Standard contract codes the devnet deploys as they are, taken at run time from the tonweb package (a dependency):
// the vesting wallet, token-contract's editable NFT collection and simple NFT item, highload wallet v3, and tonweb's
// jetton minter and wallet (an early token-contract build: mint op 21, TEP-74 messages, no TEP-89). Each
// cell is checked against its known code hash (contracts.md §0.1, §9; shared/vectors/code_hashes.json), because
// indexers recognise these contracts by that hash; a different tonweb build fails loudly instead of deploying
// look-alikes. Loaded on first use, so importing this module does not load tonweb.
import { createRequire } from 'node:module';
import { BitString, beginCell, Cell } from '@ton/core';
import { ConfigError } from '../../common/index.ts';

/** Representation hashes of the codes, as indexers key them. */
export const STANDARD_CODE_HASHES = {
  /** ton-blockchain/vesting-contract, tonweb `VestingWalletV1` (wallet_vesting). */
  vesting: 'b48b531abec3b714638291f7d77ed6dc9f6a2729efca20477137374d4ae8b590',
  /** token-contract nft-collection-editable.fc, tonweb `NftCollection` (nft_collection_editable). */
  nftCollection: '64bb2d4661b5f2dc1a83bf5cbbe09e92ac0b460a1b879a5519386fca4c348bca',
  /** token-contract nft-item.fc, tonweb `NftItem` (nft_item_simple). */
  nftItem: '4c9123828682fa6f43797ab41732bca890cae01766e0674100250516e0bf8d42',
  /** ton-blockchain/highload-wallet-contract-v3, tonweb `HighloadWalletContractV3` (highload_v3). */
  highloadV3: '11acad7955844090f283bf238bc1449871f783e7cc0979408d3f4859483e8525',
  /** tonweb `JettonMinter` (contracts.md §9; no name in code_hashes.json). */
  jettonMinter: 'f95ba0330b38cdf3459b1e811e5fc6fa6cfee566d7b764455c0468140365a737',
  /** tonweb `JettonWallet` (contracts.md §9; mainnet's SCALE jetton uses it too). */
  jettonWallet: '4adf48135cb575adbaed476799c87ff2904269b1f949ada4d0479e9104b6f217',
} as const;

export type StandardCodeName = keyof typeof STANDARD_CODE_HASHES;
export type StandardCodes = Record<StandardCodeName, Cell>;

/** The slice of tonweb's (untyped for these classes) CommonJS surface read here. */
interface TonwebCell {
  bits: { array: Uint8Array; cursor: number };
  refs: TonwebCell[];
  isExotic: boolean;
}
interface TonwebModule {
  LockupWallets: { VestingWalletV1: { codeHex: string } };
  HighloadWallets: { HighloadWalletContractV3: { codeHex: string } };
  token: {
    nft: {
      NftItem: { codeHex: string };
      // The collection's code is not exposed statically: the constructor puts it in `options.code`.
      NftCollection: new (
        provider: undefined,
        options: { royalty: number },
      ) => { options: { code: TonwebCell } };
    };
    jetton: {
      JettonWallet: { codeHex: string };
      // Like the collection, the minter's code is only reachable through a constructed instance.
      JettonMinter: new (
        provider: undefined,
        options: object,
      ) => { options: { code: TonwebCell } };
    };
  };
}

function fromTonwebCell(c: TonwebCell): Cell {
  if (c.isExotic) throw new ConfigError('tonweb: expected an ordinary code cell, got an exotic one');
  const b = beginCell().storeBits(new BitString(Buffer.from(c.bits.array), 0, c.bits.cursor));
  for (const r of c.refs) b.storeRef(fromTonwebCell(r));
  return b.endCell();
}

function checked(name: StandardCodeName, cell: Cell): Cell {
  const got = cell.hash().toString('hex');
  if (got !== STANDARD_CODE_HASHES[name]) {
    throw new ConfigError(
      `tonweb: expected the ${name} code to hash to ${STANDARD_CODE_HASHES[name]}, got ${got} (another tonweb version?)`,
      { details: { name, expected: STANDARD_CODE_HASHES[name], got } },
    );
  }
  return cell;
}

let loaded: StandardCodes | undefined;

/** The standard codes, hash-checked (loads tonweb on the first call; throws ConfigError on a mismatch). */
export function standardCodes(): StandardCodes {
  if (loaded) return loaded;
  const tonweb = createRequire(import.meta.url)('tonweb') as TonwebModule;
  const collection = new tonweb.token.nft.NftCollection(undefined, { royalty: 0 });
  const minter = new tonweb.token.jetton.JettonMinter(undefined, {});
  loaded = {
    vesting: checked('vesting', Cell.fromHex(tonweb.LockupWallets.VestingWalletV1.codeHex)),
    nftCollection: checked('nftCollection', fromTonwebCell(collection.options.code)),
    nftItem: checked('nftItem', Cell.fromHex(tonweb.token.nft.NftItem.codeHex)),
    highloadV3: checked('highloadV3', Cell.fromHex(tonweb.HighloadWallets.HighloadWalletContractV3.codeHex)),
    jettonMinter: checked('jettonMinter', fromTonwebCell(minter.options.code)),
    jettonWallet: checked('jettonWallet', Cell.fromHex(tonweb.token.jetton.JettonWallet.codeHex)),
  };
  return loaded;
}
