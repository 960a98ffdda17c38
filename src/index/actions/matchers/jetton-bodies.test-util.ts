// Test support: TEP-74 message bodies written per the TL-B (query_id 1, forward TON 0.3), for the matchers' tests.
import { Address, beginCell, type Cell } from '@ton/core';

const at = (a: string) => Address.parse(a);

/** transfer#0f8a7ea5 to the owner `to`, excess to `response`. */
export const jettonTransferBody = (amount: bigint, to: string, response: string, payload: Cell | null): Cell =>
  beginCell()
    .storeUint(0x0f8a7ea5, 32)
    .storeUint(1, 64)
    .storeCoins(amount)
    .storeAddress(at(to))
    .storeAddress(at(response))
    .storeMaybeRef(null)
    .storeCoins(300_000_000n)
    .storeMaybeRef(payload)
    .endCell();

/** internal_transfer#178d4519 from the owner `from`, excess to `response`. */
export const internalTransferBody = (amount: bigint, from: string, response: string, payload: Cell | null): Cell =>
  beginCell()
    .storeUint(0x178d4519, 32)
    .storeUint(1, 64)
    .storeCoins(amount)
    .storeAddress(at(from))
    .storeAddress(at(response))
    .storeCoins(300_000_000n)
    .storeMaybeRef(payload)
    .endCell();

/** transfer_notification#7362d09c from the owner `from`. */
export const notifyBody = (amount: bigint, from: string, payload: Cell | null): Cell =>
  beginCell()
    .storeUint(0x7362d09c, 32)
    .storeUint(1, 64)
    .storeCoins(amount)
    .storeAddress(at(from))
    .storeMaybeRef(payload)
    .endCell();

/** excesses#d53276db. */
export const excessBody = (): Cell => beginCell().storeUint(0xd53276db, 32).storeUint(1, 64).endCell();
