// Multisig v2 wallets (contracts.md §6.3; ton-index-worker MultisigContract): get_multisig_data → int
// next_order_seqno (-1 when arbitrary seqnos are allowed), int threshold, cell|null signers, cell|null proposers;
// both dictionaries are Hashmap 8 MsgAddressInt, read in key order. A signer or proposer that is not an addr_std
// makes the contract undetected.
import type { Family } from './family.ts';
import { loadAddressDict } from './multisig-signers.ts';
import { cellAt, intAt } from './stack.ts';

export const multisig: Family = {
  getter: 'get_multisig_data',
  async detect(account, base, { getters }) {
    const s = await getters.run(account, 'get_multisig_data', [], ['int', 'int', 'cell?', 'cell?']);
    if (!s) return null;
    const signers = loadAddressDict(cellAt(s, 2));
    const proposers = loadAddressDict(cellAt(s, 3));
    if (!signers || !proposers) return null;
    return { ...base, kind: 'multisig', nextOrderSeqno: intAt(s, 0), threshold: intAt(s, 1), signers, proposers };
  },
};
