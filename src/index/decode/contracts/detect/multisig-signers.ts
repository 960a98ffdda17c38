// The signer and proposer lists of multisig v2 (contracts.md §6.2): (Hashmap 8 MsgAddressInt), values inline.
import { type Address, type Cell, Dictionary } from '@ton/core';

const ADDRESS_VALUE = {
  serialize: () => {
    throw new Error('multisig signers: read only');
  },
  parse: (s: import('@ton/core').Slice) => s.loadAddress(),
};

/** The addresses in key order; [] for null (empty); null when the dictionary or an address is malformed. */
export function loadAddressDict(root: Cell | null): Address[] | null {
  if (!root) return [];
  try {
    const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(8), ADDRESS_VALUE, root);
    return [...dict.keys()].sort((a, b) => a - b).map((k) => dict.get(k)!);
  } catch {
    return null;
  }
}
