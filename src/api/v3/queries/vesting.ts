// The vesting_contracts columns v3's vesting reads select (render/vesting.ts turns the rows into JSON).

/** The columns renderers read, from `vesting_contracts V`. */
export const VESTING_COLUMNS = `V.address, V.vesting_start_time, V.vesting_total_duration, V.unlock_period,
  V.cliff_duration, V.vesting_sender_address, V.owner_address, V.vesting_total_amount::text AS vesting_total_amount`;
