// tgBTC (TON Teleport: bitcoin pegged in and out through a teleport contract, a jetton minter and a coordinator) the
// way toncenter's classifier reports it. Each step logs an external-out event, which is what gives the amounts and
// parties (layouts as toncenter reads them):
// - mint#77a80ef3 amount:Coins recipient:MsgAddress bitcoin_txid:uint256 (the teleport, once a peg-in is proven);
// - burn#ca444ce6 amount:Coins sender:MsgAddress pegout:MsgAddress (the teleport, on a burn notification);
// - new_key#27756729 amount:Coins new_internal_pubkey:uint256 pegout:MsgAddress (the teleport, on a new key);
// - dkg_completed#453443a6 timestamp:uint64 internal_pubkey:uint256 (the coordinator, when a key generation ends).
// The actions:
// - tgbtc_mint: a peg-in request #3f781d24 to the teleport, then a chain of messages (at most 20 deep) ending at the
//   teleport with #e42a879b, whose transaction logs mint and sends the jetton mint (a jetton_mint of ours). source =
//   the requester; destination the log's recipient, destination_wallet the minted-to wallet, source_secondary the
//   teleport, bitcoin_tx_id the txid as bitcoin shows it (its bytes reversed).
// - tgbtc_burn: a jetton_burn whose minter passes the burn on (burn_notification#7bdd97de, or #587643a2 of older
//   minters) to the teleport, which logs burn and may send the peg-out #be44e7a6 (with its #1a84c0e0 and TON
//   transfers). amount = the smaller of the burnt and the logged amounts.
// - tgbtc_new_key: a coordinator transaction logging dkg_completed that sends #690f357a to the teleport, which logs
//   new_key (and may start a peg-out as above). source = the coordinator (toncenter's "teleport_contract"), destination
//   = the teleport (its "coordinator_contract"), value = the DKG timestamp.
// - a log no such pattern took is a *_fallback action of its own (tgbtc_dkg_log_fallback for dkg_completed), beside
//   the contract call of the transaction that logged it, as in toncenter, where the log is a block of its own.
// toncenter's actions carry no failure: these are all successful.
// As toncenter, the bitcoin txid (asset_secondary of mints) and the DKG public key (source_secondary of new_key,
// asset of dkg_log) go in generic columns that otherwise hold addresses (varchar since schema 0011).
import { Address, type Cell, type Slice } from '@ton/core';
import { JETTON_OP, readBody, refuse } from '../../../ton/index.ts';
import type { ActionDraft, MatchContext, Matcher, TraceMessage, TraceNode } from '../types.ts';
import { basicMatcher } from './basic.ts';
import { jettonMatcher } from './jetton.ts';
import { rawAddress, withReplies } from './replies.ts';
import { isEmptyBody } from './util.ts';

export const TGBTC_OP = {
  mintEvent: 0x77a80ef3,
  burnEvent: 0xca444ce6,
  newKeyEvent: 0x27756729,
  dkgCompletedEvent: 0x453443a6,
  /** Requester -> teleport: the first message of a peg-in. */
  mintRequest: 0x3f781d24,
  /** The last message of a peg-in, to the teleport: it logs mint and sends the jetton mint. */
  mintFinal: 0xe42a879b,
  /** Minter -> teleport: the burn notification of older minters. */
  burnNotificationOld: 0x587643a2,
  /** Teleport -> peg-out contract. */
  pegout: 0xbe44e7a6,
  /** Peg-out contract -> coordinator. */
  pegoutNotify: 0x1a84c0e0,
  /** Coordinator -> teleport: the key a completed DKG produced. */
  newKey: 0x690f357a,
} as const;

/** How many messages toncenter follows back from a peg-in's last message to its request. */
const MAX_MINT_CHAIN = 20;

/**
 * MsgAddress as toncenter's decoder reads it: addr_none is null, addr_std its workchain and stored hash (an anycast
 * prefix is skipped, not applied), anything else refused.
 */
function loadLogAddress(s: Slice): string | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag !== 2) refuse(`log address: tag ${tag}`);
  if (s.loadBit()) s.skip(s.loadUint(5));
  const workchain = s.loadInt(8);
  return rawAddress(new Address(workchain, s.loadBuffer(32)));
}

/** An unsigned integer as Python's hex() writes it, without "0x": no leading zeros. */
const bareHex = (v: bigint) => v.toString(16);

const parseMintLog = (c: Cell) =>
  readBody(c, TGBTC_OP.mintEvent, (s) => ({
    amount: s.loadCoins(),
    recipient: loadLogAddress(s),
    // The txid as bitcoin displays it: the uint256's bytes in reverse order.
    bitcoinTxId: Buffer.from(s.loadUintBig(256).toString(16).padStart(64, '0'), 'hex').reverse().toString('hex'),
  }));

/** Sender and peg-out are both null when either does not read (toncenter's decoder gives up on the pair). */
const parseBurnLog = (c: Cell) =>
  readBody(c, TGBTC_OP.burnEvent, (s) => {
    const amount = s.loadCoins();
    try {
      return { amount, sender: loadLogAddress(s), pegout: loadLogAddress(s) };
    } catch {
      return { amount, sender: null, pegout: null };
    }
  });

const parseNewKeyLog = (c: Cell) =>
  readBody(c, TGBTC_OP.newKeyEvent, (s) => ({
    amount: s.loadCoins(),
    pubkey: bareHex(s.loadUintBig(256)),
    pegout: loadLogAddress(s),
  }));

const parseDkgLog = (c: Cell) =>
  readBody(c, TGBTC_OP.dkgCompletedEvent, (s) => ({
    timestamp: s.loadUintBig(64),
    pubkey: bareHex(s.loadUintBig(256)),
  }));

/** The body of the first external-out message (log) of `node` with `op`. */
function logOf(node: TraceNode, op: number): Cell | null {
  const log = node.tx.outMsgs.find((m) => m.destination === null && m.opcode === op && m.body);
  return log?.body ?? null;
}

const opOf = (node: TraceNode) => {
  const m = node.tx.inMsg;
  return m && m.source !== null && !m.bounced ? m.opcode : null;
};

const free = (nodes: TraceNode[], ctx: MatchContext) => nodes.filter((n) => !ctx.isClaimed(n));

/** A TON transfer: a body that is empty or a comment (op 0). */
const isTonTransfer = (m: TraceMessage | null) => m !== null && !m.bounced && (isEmptyBody(m.body) || m.opcode === 0);

/** The peg-out the teleport started, with the coordinator notification and the TON transfer it sent. */
function pegoutNodes(teleport: TraceNode, ctx: MatchContext): TraceNode[] {
  const pegout = free(teleport.children, ctx).find((c) => opOf(c) === TGBTC_OP.pegout);
  if (!pegout) return [];
  const kids = free(pegout.children, ctx);
  const notify = kids.find((c) => opOf(c) === TGBTC_OP.pegoutNotify);
  const transfer = kids.find((c) => isTonTransfer(c.tx.inMsg));
  return [pegout, ...(notify ? [notify] : []), ...(transfer ? [transfer] : [])];
}

// ---- mint ----

/** The peg-in's last transaction below its request: #e42a879b with a mint log, within MAX_MINT_CHAIN messages. */
function mintFinalBelow(request: TraceNode, ctx: MatchContext): TraceNode | null {
  let level = [request];
  for (let depth = 0; depth < MAX_MINT_CHAIN && level.length > 0; depth++) {
    level = level.flatMap((n) => free(n.children, ctx));
    const found = level.find((n) => opOf(n) === TGBTC_OP.mintFinal && logOf(n, TGBTC_OP.mintEvent));
    if (found) return found;
  }
  return null;
}

/** The transactions from `top` down to `bottom` (its descendant). */
function pathBetween(top: TraceNode, bottom: TraceNode): TraceNode[] {
  const path: TraceNode[] = [];
  for (let n: TraceNode | null = bottom; n && n !== top; n = n.parent) path.push(n);
  return [top, ...path.reverse()];
}

function mintOf(request: TraceNode, ctx: MatchContext): ActionDraft | null {
  const requester = request.tx.inMsg?.source ?? null;
  const final = mintFinalBelow(request, ctx);
  const log = final && parseMintLog(logOf(final, TGBTC_OP.mintEvent)!);
  if (!final || !log || !requester) return null;
  const jettonMint = free(final.children, ctx)
    .filter((c) => opOf(c) === JETTON_OP.mint)
    .map((c) => jettonMatcher.match(c, ctx)?.find((d) => d.type === 'jetton_mint'))
    .find((d) => d !== undefined);
  if (!jettonMint) return null;
  const asset = jettonMint.asset ?? null;
  const wallet = jettonMint.destinationSecondary ?? null;
  return {
    type: 'tgbtc_mint',
    nodes: [...pathBetween(request, final), ...withReplies(final, ctx).slice(1), ...jettonMint.nodes],
    success: true,
    source: requester,
    sourceSecondary: final.tx.account,
    destination: log.recipient,
    destinationSecondary: wallet,
    asset,
    assetSecondary: log.bitcoinTxId,
    amount: log.amount,
    details: mintDetails(requester, log, asset, wallet),
  };
}

function mintDetails(
  source: string | null,
  log: { amount: bigint; recipient: string | null; bitcoinTxId: string },
  asset: string | null,
  wallet: string | null,
) {
  return {
    source,
    destination: log.recipient,
    amount: log.amount.toString(),
    asset,
    bitcoin_tx_id: log.bitcoinTxId,
    destination_wallet: wallet,
  };
}

// ---- burn ----

/** The minter's hand-over of a burn to the teleport: a child of the jetton_burn's transactions that logged burn. */
function burnHandOver(burnNodes: TraceNode[], ctx: MatchContext): TraceNode | undefined {
  const handOver = new Set<number>([JETTON_OP.burnNotification, TGBTC_OP.burnNotificationOld]);
  return free(
    burnNodes.flatMap((n) => n.children),
    ctx,
  ).find((c) => handOver.has(opOf(c) ?? -1) && !burnNodes.includes(c) && logOf(c, TGBTC_OP.burnEvent));
}

function burnOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const burn = jettonMatcher.match(node, ctx)?.find((d) => d.type === 'jetton_burn');
  const teleport = burn && burnHandOver(burn.nodes, ctx);
  const log = teleport && parseBurnLog(logOf(teleport, TGBTC_OP.burnEvent)!);
  if (!burn || !teleport || !log) return null;
  const burnt = burn.amount ?? 0n;
  const amount = burnt === 0n || log.amount < burnt ? log.amount : burnt;
  return burnDraft('tgbtc_burn', [...burn.nodes, teleport, ...pegoutNodes(teleport, ctx)], {
    source: burn.source ?? null,
    wallet: burn.sourceSecondary ?? null,
    asset: burn.asset ?? null,
    amount,
    pegout: log.pegout,
  });
}

function burnDraft(
  type: string,
  nodes: TraceNode[],
  b: { source: string | null; wallet: string | null; asset: string | null; amount: bigint; pegout: string | null },
): ActionDraft {
  return {
    type,
    nodes,
    success: true,
    source: b.source,
    sourceSecondary: b.wallet,
    destination: b.pegout,
    asset: b.asset,
    amount: b.amount,
    details: {
      source: b.source,
      source_wallet: b.wallet,
      destination: b.pegout,
      amount: b.amount.toString(),
      asset: b.asset,
    },
  };
}

// ---- new key ----

interface NewKey {
  source: string | null;
  pubkey: string;
  coordinator: string;
  pegout: string | null;
  amount: bigint;
  timestamp: bigint | null;
}

function newKeyDraft(type: string, nodes: TraceNode[], k: NewKey): ActionDraft {
  return {
    type,
    nodes,
    success: true,
    source: k.source,
    sourceSecondary: k.pubkey,
    destination: k.coordinator,
    destinationSecondary: k.pegout,
    amount: k.amount,
    value: k.timestamp,
    details: {
      source: k.source,
      pubkey: k.pubkey,
      coordinator: k.coordinator,
      pegout: k.pegout,
      amount: k.amount.toString(),
      asset: null,
    },
  };
}

/** At a transaction that logged dkg_completed: its #690f357a to the teleport that logged new_key. */
function newKeyOf(node: TraceNode, ctx: MatchContext): ActionDraft | null {
  const dkgBody = logOf(node, TGBTC_OP.dkgCompletedEvent);
  const dkg = dkgBody && parseDkgLog(dkgBody);
  if (!dkg) return null;
  for (const teleport of free(node.children, ctx)) {
    const body = opOf(teleport) === TGBTC_OP.newKey ? logOf(teleport, TGBTC_OP.newKeyEvent) : null;
    const key = body && parseNewKeyLog(body);
    if (!key) continue;
    return newKeyDraft('tgbtc_new_key', [node, teleport, ...pegoutNodes(teleport, ctx)], {
      source: node.tx.account,
      pubkey: key.pubkey,
      coordinator: teleport.tx.account,
      pegout: key.pegout,
      amount: key.amount,
      timestamp: dkg.timestamp,
    });
  }
  return null;
}

// ---- logs no pattern took ----

function fallbackOf(node: TraceNode, log: TraceMessage): ActionDraft | null {
  const body = log.body;
  if (!body) return null;
  const account = node.tx.account;
  switch (log.opcode) {
    case TGBTC_OP.mintEvent: {
      const m = parseMintLog(body);
      if (!m) return null;
      return {
        type: 'tgbtc_mint_fallback',
        nodes: [node],
        success: true,
        source: account,
        sourceSecondary: account,
        destination: m.recipient,
        destinationSecondary: null,
        asset: null,
        assetSecondary: m.bitcoinTxId,
        amount: m.amount,
        details: mintDetails(account, m, null, null),
      };
    }
    case TGBTC_OP.burnEvent: {
      const b = parseBurnLog(body);
      if (!b) return null;
      return burnDraft('tgbtc_burn_fallback', [node], {
        source: b.sender,
        wallet: null,
        asset: null,
        amount: b.amount,
        pegout: b.pegout,
      });
    }
    case TGBTC_OP.newKeyEvent: {
      const k = parseNewKeyLog(body);
      if (!k) return null;
      return newKeyDraft('tgbtc_new_key_fallback', [node], {
        source: null,
        pubkey: k.pubkey,
        coordinator: account,
        pegout: k.pegout,
        amount: k.amount,
        timestamp: null,
      });
    }
    case TGBTC_OP.dkgCompletedEvent: {
      const d = parseDkgLog(body);
      if (!d) return null;
      return {
        type: 'tgbtc_dkg_log_fallback',
        nodes: [node],
        success: true,
        source: account,
        asset: d.pubkey,
        value: d.timestamp,
        details: { coordinator: account, pubkey: d.pubkey, timestamp: d.timestamp.toString() },
      };
    }
    default:
      return null;
  }
}

/** The fallbacks of the tgBTC logs `node` sent, with the action of its own inbound message. */
function fallbacksOf(node: TraceNode, ctx: MatchContext): ActionDraft[] | null {
  const logs = node.tx.outMsgs.filter((m) => m.destination === null);
  const drafts = logs.map((m) => fallbackOf(node, m)).filter((d): d is ActionDraft => d !== null);
  if (drafts.length === 0) return null;
  return [...(basicMatcher.match(node, ctx) ?? []), ...drafts];
}

export const tgbtcMatcher: Matcher = {
  name: 'tgbtc',
  types: [
    'tgbtc_mint',
    'tgbtc_mint_fallback',
    'tgbtc_burn',
    'tgbtc_burn_fallback',
    'tgbtc_new_key',
    'tgbtc_new_key_fallback',
    'tgbtc_dkg_log_fallback',
  ],
  match(node, ctx) {
    const op = opOf(node);
    const full =
      op === TGBTC_OP.mintRequest ? mintOf(node, ctx) : op === JETTON_OP.burn ? burnOf(node, ctx) : newKeyOf(node, ctx);
    return full ? [full] : fallbacksOf(node, ctx);
  },
};
