// Multisig v2 orders (contracts.md §6.3-6.4): get_order_data → slice multisig, int order_seqno, int threshold,
// int sent_for_execution, cell signers, int approvals_mask, int approvals_num, int expiration_date, cell order
// (before init every entry after order_seqno is null, so an uninitialised order is not detected). Cross-check:
// the multisig's get_order_address(order_seqno) must be this address.
import type { Family } from './family.ts';
import { loadAddressDict } from './multisig-signers.ts';
import { addressAt, cellAt, intArg, intAt } from './stack.ts';

export const multisigOrder: Family = {
  getter: 'get_order_data',
  async detect(account, base, { ctx, getters }) {
    const s = await getters.run(
      account,
      'get_order_data',
      [],
      ['slice', 'int', 'int', 'int', 'cell', 'int', 'int', 'int', 'cell'],
    );
    if (!s) return null;
    const owner = addressAt(s, 0);
    const signers = loadAddressDict(cellAt(s, 4));
    if (!owner || !signers) return null;
    const orderSeqno = intAt(s, 1);

    const parent = await ctx.account(owner);
    if (!parent) return null;
    const derived = await getters.run(parent, 'get_order_address', [intArg(orderSeqno)], ['slice']);
    if (!derived || !addressAt(derived, 0)?.equals(account.address)) return null;

    return {
      ...base,
      kind: 'multisig_order',
      multisig: owner,
      orderSeqno,
      threshold: intAt(s, 2),
      sentForExecution: intAt(s, 3) !== 0n,
      approvalsMask: intAt(s, 5),
      approvalsNum: intAt(s, 6),
      expirationDate: intAt(s, 7),
      order: cellAt(s, 8)!,
      signers,
    };
  },
};
