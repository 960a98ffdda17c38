// block.tlb:846-863
// oracle_bridge_params#_ bridge_address:bits256 oracle_mutlisig_address:bits256 oracles:(HashmapE 256 uint256) external_chain_address:bits256 = OracleBridgeParams;
// _ OracleBridgeParams = ConfigParam 71; // Ethereum bridge
// _ OracleBridgeParams = ConfigParam 72; // Binance Smart Chain bridge
// _ OracleBridgeParams = ConfigParam 73; // Polygon bridge
//
// // Note that chains in which bridge, minter and jetton-wallet operate are fixated
// jetton_bridge_prices#_ bridge_burn_fee:Coins bridge_mint_fee:Coins
//                        wallet_min_tons_for_storage:Coins
//                        wallet_gas_consumption:Coins
//                        minter_min_tons_for_storage:Coins
//                        discover_gas_consumption:Coins = JettonBridgePrices;
//
// jetton_bridge_params_v0#00 bridge_address:bits256 oracles_address:bits256 oracles:(HashmapE 256 uint256) state_flags:uint8 burn_bridge_fee:Coins = JettonBridgeParams;
// jetton_bridge_params_v1#01 bridge_address:bits256 oracles_address:bits256 oracles:(HashmapE 256 uint256) state_flags:uint8 prices:^JettonBridgePrices external_chain_address:bits256 = JettonBridgeParams;
//
// _ JettonBridgeParams = ConfigParam 79; // ETH->TON token bridge
// _ JettonBridgeParams = ConfigParam 81; // BNB->TON token bridge
// _ JettonBridgeParams = ConfigParam 82; // Polygon->TON token bridge
import { type Builder, beginCell, Dictionary, type Slice } from '@ton/core';
import { bits256Value, dictToMap, expectEnd, loadTag, mapToDict, storeBits256 } from './codec-helpers.ts';

/** Oracle masterchain account id (256-bit key) -> its external-chain key (uint256, held as 32 bytes). */
export type BridgeOracles = Map<bigint, Buffer>;

function loadOracles(slice: Slice): BridgeOracles {
  return dictToMap(Dictionary.load(Dictionary.Keys.BigUint(256), bits256Value, slice));
}

function storeOracles(b: Builder, oracles: BridgeOracles): void {
  b.storeDict(mapToDict(oracles, Dictionary.Keys.BigUint(256), bits256Value));
}

export type OracleBridgeParams = {
  bridgeAddress: Buffer;
  /** The TL-B field name carries the typo ("mutlisig"); kept mechanically. */
  oracleMutlisigAddress: Buffer;
  oracles: BridgeOracles;
  externalChainAddress: Buffer;
};

export function loadOracleBridgeParams(slice: Slice): OracleBridgeParams {
  return {
    bridgeAddress: slice.loadBuffer(32),
    oracleMutlisigAddress: slice.loadBuffer(32),
    oracles: loadOracles(slice),
    externalChainAddress: slice.loadBuffer(32),
  };
}

export function storeOracleBridgeParams(value: OracleBridgeParams): (b: Builder) => void {
  return (b) => {
    const T = 'OracleBridgeParams';
    storeBits256(b, value.bridgeAddress, T, 'bridge_address');
    storeBits256(b, value.oracleMutlisigAddress, T, 'oracle_mutlisig_address');
    storeOracles(b, value.oracles);
    storeBits256(b, value.externalChainAddress, T, 'external_chain_address');
  };
}

export type JettonBridgePrices = {
  bridgeBurnFee: bigint;
  bridgeMintFee: bigint;
  walletMinTonsForStorage: bigint;
  walletGasConsumption: bigint;
  minterMinTonsForStorage: bigint;
  discoverGasConsumption: bigint;
};

export function loadJettonBridgePrices(slice: Slice): JettonBridgePrices {
  return {
    bridgeBurnFee: slice.loadCoins(),
    bridgeMintFee: slice.loadCoins(),
    walletMinTonsForStorage: slice.loadCoins(),
    walletGasConsumption: slice.loadCoins(),
    minterMinTonsForStorage: slice.loadCoins(),
    discoverGasConsumption: slice.loadCoins(),
  };
}

export function storeJettonBridgePrices(value: JettonBridgePrices): (b: Builder) => void {
  return (b) => {
    b.storeCoins(value.bridgeBurnFee);
    b.storeCoins(value.bridgeMintFee);
    b.storeCoins(value.walletMinTonsForStorage);
    b.storeCoins(value.walletGasConsumption);
    b.storeCoins(value.minterMinTonsForStorage);
    b.storeCoins(value.discoverGasConsumption);
  };
}

type JettonBridgeCommon = { bridgeAddress: Buffer; oraclesAddress: Buffer; oracles: BridgeOracles; stateFlags: number };

export type JettonBridgeParams =
  | ({ kind: 'jetton_bridge_params_v0' } & JettonBridgeCommon & { burnBridgeFee: bigint })
  | ({ kind: 'jetton_bridge_params_v1' } & JettonBridgeCommon & {
        prices: JettonBridgePrices;
        externalChainAddress: Buffer;
      });

export function loadJettonBridgeParams(slice: Slice): JettonBridgeParams {
  const tag = loadTag(slice, 8, [0x00, 0x01], 'JettonBridgeParams');
  const common: JettonBridgeCommon = {
    bridgeAddress: slice.loadBuffer(32),
    oraclesAddress: slice.loadBuffer(32),
    oracles: loadOracles(slice),
    stateFlags: slice.loadUint(8),
  };
  if (tag === 0x00) return { kind: 'jetton_bridge_params_v0', ...common, burnBridgeFee: slice.loadCoins() };
  const ps = slice.loadRef().beginParse();
  const prices = loadJettonBridgePrices(ps);
  expectEnd(ps, 'JettonBridgePrices');
  return { kind: 'jetton_bridge_params_v1', ...common, prices, externalChainAddress: slice.loadBuffer(32) };
}

export function storeJettonBridgeParams(value: JettonBridgeParams): (b: Builder) => void {
  return (b) => {
    const T = 'JettonBridgeParams';
    b.storeUint(value.kind === 'jetton_bridge_params_v0' ? 0x00 : 0x01, 8);
    storeBits256(b, value.bridgeAddress, T, 'bridge_address');
    storeBits256(b, value.oraclesAddress, T, 'oracles_address');
    storeOracles(b, value.oracles);
    b.storeUint(value.stateFlags, 8);
    if (value.kind === 'jetton_bridge_params_v0') {
      b.storeCoins(value.burnBridgeFee);
    } else {
      b.storeRef(beginCell().store(storeJettonBridgePrices(value.prices)));
      storeBits256(b, value.externalChainAddress, T, 'external_chain_address');
    }
  };
}
