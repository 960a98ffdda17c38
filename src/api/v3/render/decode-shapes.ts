// Our parsed bodies in the shape of toncenter's decoder (ton-marker schemes.tlb, v3-api.md §7.8): the constructor
// name it reports and its TL-B field names and nesting, where ours differ. Most parsers already carry ton-marker's
// names (body-parser.ts); what is left is the signed wallet externals (named by shape here, by constructor there),
// a few renamed fields, and the w5 / highload v3 requests, which ton-marker nests as their TL-B types do.
import type { KnownBody, W5InnerRequest, WalletMessage, WalletV4Action } from '../../../ton/index.ts';

export interface BodyShape {
  /** The "@type" of the body. */
  name: string;
  /** Its fields; keys are snake_cased later (decode-json.ts), so either case works here. */
  fields: Record<string, unknown>;
}

const messages = (list: WalletMessage[]) => list.map((m) => ({ mode: m.mode, msg: m.message }));

// ton-marker's W4Operation: simple_send#00 / deploy_install_plugin#01 / install_plugin#02 / remove_plugin#03.
function v4Operation(a: WalletV4Action): Record<string, unknown> {
  switch (a.op) {
    case 0:
      return { kind: 'simple_send', msgs: messages(a.messages) };
    case 1:
      return {
        kind: 'deploy_install_plugin',
        plugin_workchain: a.pluginWorkchain,
        plugin_balance: a.pluginBalance,
        state_init: a.stateInit,
        body: a.body,
      };
    default:
      return {
        kind: a.op === 2 ? 'install_plugin' : 'remove_plugin',
        plugin_workchain: a.wc,
        plugin_address: a.addrHash,
        amount: a.amount,
        query_id: a.queryId,
      };
  }
}

// ton-marker's W5InnerRequest: out_actions, extended_actions (add_extension#02, delete_extension#03, #04).
const W5_EXTENDED_NAMES: Readonly<Record<string, string>> = {
  add_ext: 'add_extension',
  delete_ext: 'delete_extension',
  set_signature_auth_allowed: 'set_signature_auth_allowed',
};

function w5Inner(r: W5InnerRequest): Record<string, unknown> {
  return {
    out_actions: r.actions,
    extended_actions: r.extended?.map((e) => ({ ...e, kind: W5_EXTENDED_NAMES[e.kind] ?? e.kind })) ?? null,
  };
}

/** The "@type" and fields /decode shows for a body parseKnownBody recognised. */
export function bodyShape(body: KnownBody): BodyShape {
  switch (body.type) {
    case 'wallet_v3_signed_request':
      return {
        name: 'wallet_signed_v3',
        fields: {
          signature: body.signature,
          subwallet_id: body.subwalletId,
          valid_until: body.validUntil,
          msg_seqno: body.seqno,
          msgs: messages(body.messages),
        },
      };
    case 'wallet_v4_signed_request':
      return {
        name: 'wallet_signed_v4',
        fields: {
          signature: body.signature,
          subwallet_id: body.subwalletId,
          valid_until: body.validUntil,
          msg_seqno: body.seqno,
          op: v4Operation(body.action),
        },
      };
    case 'highload_v3_signed_request':
      return {
        name: 'highload_wallet_signed_v3',
        fields: {
          signature: body.signature,
          msg_inner: {
            subwallet_id: body.subwalletId,
            message_to_send: body.messageToSend,
            send_mode: body.sendMode,
            query_id: { shift: body.shift, bit_number: body.bitNumber },
            created_at: body.createdAt,
            timeout: body.timeout,
          },
        },
      };
    case 'w5_external_signed_request':
    case 'w5_internal_signed_request':
      return {
        name: body.type,
        fields: {
          request: {
            wallet_id: body.walletId,
            valid_until: body.validUntil,
            msg_seqno: body.seqno,
            inner: w5Inner(body),
            signature: body.signature,
          },
        },
      };
    case 'w5_extension_action_request':
      return { name: body.type, fields: { query_id: body.queryId, request: w5Inner(body) } };
    case 'encrypted_text_comment':
      return { name: body.type, fields: { cipher_text: body.ciphertext } };
    case 'change_dns_record':
      // value:^DNSRecord is shown as the record when it parses, else as the cell.
      return {
        name: body.type,
        fields: { query_id: body.queryId, key: uint256Hex(body.key), value: body.record ?? body.value },
      };
    case 'delete_dns_record':
      return { name: body.type, fields: { query_id: body.queryId, key: uint256Hex(body.key) } };
    case 'vesting_send_message':
      return { name: body.type, fields: { query_id: body.queryId, send_mode: body.sendMode, message: body.msg } };
    case 'minter_jetton_mint':
    case 'jetton_mint':
    case 'jetton_call_to': {
      // master_msg is a cell, so it is decoded as a nested body anyway; the pre-parsed copy would repeat it.
      const { type, masterMsgParsed: _repeat, ...fields } = body;
      return { name: type, fields };
    }
    default: {
      const { type, ...fields } = body;
      return { name: type, fields };
    }
  }
}

/** A bits256 key (DNS category) as its 32 bytes, which decode-json prints as hex like any bit string. */
function uint256Hex(v: bigint): Buffer {
  return Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
}
