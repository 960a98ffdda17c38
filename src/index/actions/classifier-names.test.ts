// The classifier-name mapping on hand-made actions (the mainnet test runs it over every real action and case too).
import { describe, expect, it } from 'vitest';
import {
  actionToClassifierNames,
  CLASSIFIER_NAMES,
  classifierFromDetails,
  detailsFromClassifier,
  GENERIC_FIELDS,
} from './classifier-names.ts';
import { MATCHERS } from './matchers/index.ts';
import type { Action } from './types.ts';

const A = (n: number) => `0:${n.toString(16).toUpperCase().padStart(64, '0')}`;

function action(over: Partial<Action>): Action {
  return {
    traceId: `${'T'.repeat(43)}=`,
    actionId: `${'I'.repeat(43)}=`,
    type: 'ton_transfer',
    startLt: 10n,
    endLt: 12n,
    startUtime: 1,
    endUtime: 2,
    txHashes: [`${'H'.repeat(43)}=`],
    success: true,
    details: {},
    accounts: [A(1), A(2)],
    traceEndLt: 12n,
    traceEndUtime: 2,
    traceExternalHash: null,
    traceExternalHashNorm: null,
    traceMcSeqnoEnd: 5,
    mcSeqnoEnd: 5,
    parentActionId: null,
    ancestorType: [],
    ...over,
  };
}

describe('classifier names', () => {
  it('names a jetton transfer as toncenter’s classifier does, integers as integers', () => {
    const details = {
      asset: A(9),
      sender: A(1),
      receiver: A(2),
      sender_jetton_wallet: A(3),
      receiver_jetton_wallet: A(4),
      amount: '123456789012345678901234567890',
      comment: 'hi',
      is_encrypted_comment: false,
      query_id: '31',
      response_destination: A(1),
      custom_payload: null,
      forward_payload: 'te6cckEBAQEACAAADAAAAAAxMb6Vqnw=',
      forward_amount: '1',
    };
    const doc = classifierFromDetails('jetton_transfer', details);
    expect(doc).toEqual({
      asset: A(9),
      source: A(1),
      destination: A(2),
      source_secondary: A(3),
      destination_secondary: A(4),
      amount: 123456789012345678901234567890n,
      jetton_transfer_data: {
        comment: 'hi',
        is_encrypted_comment: false,
        query_id: 31,
        response_destination: A(1),
        custom_payload: null,
        forward_payload: 'te6cckEBAQEACAAADAAAAAAxMb6Vqnw=',
        forward_amount: 1,
      },
    });
    expect(detailsFromClassifier('jetton_transfer', doc)).toEqual(details);
  });

  it('converts nested swap records and opcodes both ways', () => {
    const details = {
      dex: 'stonfi_v2',
      sender: A(1),
      asset_in: null,
      asset_out: A(5),
      dex_incoming_transfer: { asset: null, source: A(1), amount: '5', destination: A(2) },
      dex_outgoing_transfer: { asset: A(5), source: A(2), amount: '7', destination: A(1) },
      peer_swaps: [{ asset_in: null, amount_in: '5', asset_out: A(5), amount_out: '7' }],
    };
    const doc = classifierFromDetails('jetton_swap', details);
    expect(doc.asset2).toBe(A(5));
    expect(doc.jetton_swap_data).toMatchObject({
      dex_incoming_transfer: { amount: 5 },
      peer_swaps: [{ amount_in: 5, amount_out: 7 }],
    });
    expect(detailsFromClassifier('jetton_swap', doc)).toEqual(details);
    expect(classifierFromDetails('call_contract', { opcode: '0x0490f09b' }).opcode).toBe(0x0490f09b);
    expect(detailsFromClassifier('call_contract', { opcode: 0xffffffff })).toEqual({ opcode: '0xffffffff' });
  });

  it('reads an integral float of toncenter’s (49.0) as an integer', () => {
    expect(detailsFromClassifier('nft_mint', { nft_mint_data: { nft_item_index: 49.0 } })).toEqual({
      nft_item_index: '49',
    });
    expect(() => detailsFromClassifier('nft_mint', { nft_mint_data: { nft_item_index: 1.5 } })).toThrow(/integer/);
  });

  it('keeps details keys the table does not know under <type>_data', () => {
    const doc = classifierFromDetails('future_type', { a: '1', b: null });
    expect(doc).toEqual({ future_type_data: { a: '1', b: null } });
    expect(detailsFromClassifier('jetton_burn', { jetton_burn_data: { extra: 1 }, amount: 5 })).toEqual({
      extra: 1,
      amount: '5',
    });
  });

  it('takes generic fields from the columns and per-type records from the details', () => {
    const doc = actionToClassifierNames(
      action({
        type: 'ton_transfer',
        source: A(1),
        destination: A(2),
        value: 2630055735n,
        details: { source: A(1), destination: A(2), value: '2630055735', comment: null, encrypted: false },
      }),
    );
    expect(doc).toMatchObject({
      type: 'ton_transfer',
      source: A(1),
      destination: A(2),
      value: 2630055735,
      amount: null,
      start_lt: 10,
      tx_hashes: [`${'H'.repeat(43)}=`],
      ton_transfer_data: { content: null, encrypted: false },
    });
    for (const k of Object.keys(GENERIC_FIELDS)) expect(doc, k).toHaveProperty(k);
  });

  it('maps each details key of a type exactly once, to a distinct classifier path', () => {
    for (const [type, rows] of Object.entries(CLASSIFIER_NAMES)) {
      const keys = rows.map((r) => r.details);
      const paths = rows.map((r) => r.classifier);
      expect(new Set(keys).size, type).toBe(keys.length);
      expect(new Set(paths).size, type).toBe(paths.length);
    }
  });

  it('names every type a matcher of the table (or the driver) produces', () => {
    const types = new Set([...MATCHERS.flatMap((m) => m.types), 'contract_deploy', 'unknown']);
    for (const t of types) expect(CLASSIFIER_NAMES, t).toHaveProperty(t);
  });
});
