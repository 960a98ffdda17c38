// vesting_contracts rows (with their vesting_whitelist) as v3 VestingInfo objects (v3-api.md §3.8, toncenter's
// models.VestingInfo): times and durations as JSON numbers, the total amount as a decimal string, the whitelist
// as raw addresses in address order.
import type { Row } from '../sql-query.ts';
import { num, str } from './values.ts';

export function vestingJson(r: Row, whitelist: readonly string[]): Record<string, unknown> {
  return {
    address: r.address,
    start_time: num(r.vesting_start_time),
    total_duration: num(r.vesting_total_duration),
    unlock_period: num(r.unlock_period),
    cliff_duration: num(r.cliff_duration),
    sender_address: r.vesting_sender_address ?? null,
    owner_address: r.owner_address ?? null,
    total_amount: str(r.vesting_total_amount),
    whitelist: [...whitelist],
  };
}
