// The tonutils-go oracle: a TEST TOOL, not part of the product. It connects to a devnet liteserver with
// tonutils-go's proof checks on (ProofCheckPolicyFast), follows masterchain blocks as they appear and checks, for
// each, everything a tonutils-go client would read: block ids, headers and data, shard blocks back to the previous
// tops, the transactions of every block (listed with proofs, then fetched one by one with proofs), the state of
// every account that had a transaction (with proofs), get-methods (wallet seqno, jetton data), the configuration;
// masterchain proof chains backward (VerifyProofChain) and forward from the zero state (the block's signatures,
// checked with tonutils-go's primitives); and a wallet transfer from each of the given genesis wallets that must
// land. ProofCheckPolicySecure from the config's init block (the devnet's first key block) follows the chain too
// (-secure require fails the run if it does not; report only says whether it does). It prints a JSON
// report ({"checked": {...}, "failures": [...], "info": {...}}) on stdout and exits 1 on any failure, 2 on bad
// usage.
package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/xssnick/tonutils-go/address"
	"github.com/xssnick/tonutils-go/liteclient"
	"github.com/xssnick/tonutils-go/tl"
	"github.com/xssnick/tonutils-go/tlb"
	"github.com/xssnick/tonutils-go/ton"
	"github.com/xssnick/tonutils-go/ton/jetton"
	"github.com/xssnick/tonutils-go/ton/wallet"
	"github.com/xssnick/tonutils-go/tvm/cell"
)

const (
	mcShard      = int64(-9223372036854775808)
	txPageSize   = 8 // small pages, so listBlockTransactions paging (after + incomplete) is exercised
	maxFailures  = 100
	devnetGlobal = -217
)

// ---- the report -------------------------------------------------------------------------------------------

type report struct {
	mu       sync.Mutex
	Checked  map[string]int `json:"checked"`
	Failures []string       `json:"failures"`
	Info     map[string]any `json:"info"`
	failed   int
}

func newReport() *report {
	return &report{Checked: map[string]int{}, Failures: []string{}, Info: map[string]any{}}
}

func (r *report) ok(name string) {
	r.mu.Lock()
	r.Checked[name]++
	r.mu.Unlock()
}

func (r *report) fail(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed++
	if len(r.Failures) < maxFailures {
		r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
	}
}

func (r *report) info(key string, v any) {
	r.mu.Lock()
	r.Info[key] = v
	r.mu.Unlock()
}

// ---- helpers ----------------------------------------------------------------------------------------------

func idStr(b *ton.BlockIDExt) string {
	if b == nil {
		return "<nil>"
	}
	return fmt.Sprintf("(%d,%016x,%d):%s", b.Workchain, uint64(b.Shard), b.SeqNo, hex.EncodeToString(b.RootHash)[:16])
}

func addrOf(wc int32, data []byte) *address.Address {
	return address.NewAddress(0, byte(int8(wc)), data)
}

func shardContains(shard int64, acc []byte) bool {
	s := uint64(shard)
	low := s & -s
	if low == 0 {
		return false
	}
	var a uint64
	for i := 0; i < 8; i++ {
		a = a<<8 | uint64(acc[i])
	}
	mask := ^(low<<1 - 1)
	return (a & mask) == (s & mask)
}

type walletEntry struct {
	Version  string   `json:"version"`
	Mnemonic []string `json:"mnemonic"`
	Address  string   `json:"address"`
	Raw      string   `json:"raw"`
}

// txSeen is the newest transaction of an account among the blocks of one masterchain step.
type txSeen struct {
	addr *address.Address
	lt   uint64
	hash []byte
	all  map[uint64][]byte
}

type oracle struct {
	rep     *report
	api     *ton.APIClient // ProofCheckPolicyFast
	sec     *ton.APIClient // ProofCheckPolicySecure
	cfg     *liteclient.GlobalConfig
	wallets map[string]walletEntry // raw address -> entry

	jettonKnown map[string]bool // raw address -> is a jetton master (get_jetton_data answered)
	shardTxs    map[string]int  // shard -> transactions seen
	shardBlocks map[string]int  // shard -> blocks walked
	mcBlocks    []*ton.BlockIDExt
}

func (o *oracle) query(ctx context.Context, req tl.Serializable) (tl.Serializable, error) {
	var resp tl.Serializable
	if err := o.api.Client().QueryLiteserver(ctx, req, &resp); err != nil {
		return nil, err
	}
	if e, ok := resp.(ton.LSError); ok {
		return nil, e
	}
	return resp, nil
}

// checkHeaderProof checks a liteServer.blockHeader answer the way tonutils-go checks block proofs:
// the proof unwraps to the block's root hash and parses as a Block whose info names this block.
func (o *oracle) checkHeaderProof(what string, id *ton.BlockIDExt, h ton.BlockHeader) *tlb.Block {
	if !h.ID.Equals(id) {
		o.rep.fail("%s: answer id %s, want %s", what, idStr(h.ID), idStr(id))
		return nil
	}
	pc, err := cell.FromBOC(h.HeaderProof)
	if err != nil {
		o.rep.fail("%s %s: header proof BoC: %v", what, idStr(id), err)
		return nil
	}
	blk, err := ton.CheckBlockProof(pc, id.RootHash)
	if err != nil {
		o.rep.fail("%s %s: header proof: %v", what, idStr(id), err)
		return nil
	}
	if err := checkInfo(&blk.BlockInfo, id); err != nil {
		o.rep.fail("%s %s: %v", what, idStr(id), err)
		return nil
	}
	return blk
}

func checkInfo(info *tlb.BlockHeader, id *ton.BlockIDExt) error {
	wc, shard := tlb.ConvertShardIdentToShard(info.Shard)
	if info.SeqNo != id.SeqNo || wc != id.Workchain || int64(shard) != id.Shard {
		return fmt.Errorf("block info names (%d,%016x,%d)", wc, shard, info.SeqNo)
	}
	if info.NotMaster != (id.Workchain != -1) {
		return fmt.Errorf("not_master=%v in a workchain %d block", info.NotMaster, id.Workchain)
	}
	if info.EndLt < info.StartLt {
		return fmt.Errorf("end_lt %d < start_lt %d", info.EndLt, info.StartLt)
	}
	if id.Workchain != -1 && info.MasterRef == nil {
		return fmt.Errorf("shard block without master_ref")
	}
	return nil
}

// ---- one masterchain step ---------------------------------------------------------------------------------

type walked struct {
	id   *ton.BlockIDExt
	data *tlb.Block
}

// walkShard fetches shard blocks from `top` back to `prevTop` (exclusive), newest first.
func (o *oracle) walkShard(ctx context.Context, top, prevTop *ton.BlockIDExt) ([]walked, error) {
	var out []walked
	cur := top
	for i := 0; ; i++ {
		if prevTop != nil && cur.Equals(prevTop) {
			return out, nil
		}
		if prevTop != nil && cur.SeqNo <= prevTop.SeqNo {
			return nil, fmt.Errorf("shard chain from %s does not reach the previous top %s (at %s)", idStr(top), idStr(prevTop), idStr(cur))
		}
		if i > 64 {
			return nil, fmt.Errorf("shard chain from %s longer than 64 blocks", idStr(top))
		}
		data, err := o.api.GetBlockData(ctx, cur)
		if err != nil {
			return nil, fmt.Errorf("getBlock %s: %w", idStr(cur), err)
		}
		o.rep.ok("getBlock.shard")
		if err := checkInfo(&data.BlockInfo, cur); err != nil {
			return nil, fmt.Errorf("block %s: %w", idStr(cur), err)
		}
		if data.GlobalID != devnetGlobal {
			return nil, fmt.Errorf("block %s: global_id %d", idStr(cur), data.GlobalID)
		}
		// the same block by seqno and by lt
		byNo, err := o.api.LookupBlock(ctx, cur.Workchain, cur.Shard, cur.SeqNo)
		if err != nil {
			return nil, fmt.Errorf("lookupBlock %s: %w", idStr(cur), err)
		}
		if !byNo.Equals(cur) {
			return nil, fmt.Errorf("lookupBlock by seqno %s answered %s", idStr(cur), idStr(byNo))
		}
		o.rep.ok("lookupBlock.shard")
		if err := o.lookupByLt(ctx, cur, data.BlockInfo.StartLt); err != nil {
			return nil, err
		}
		out = append(out, walked{id: cur, data: data})
		parents, err := ton.GetParentBlocks(&data.BlockInfo)
		if err != nil || len(parents) != 1 {
			return nil, fmt.Errorf("block %s: parents %v (%v)", idStr(cur), len(parents), err)
		}
		if prevTop == nil {
			return out, nil
		}
		cur = parents[0]
	}
}

// lookupByLt asks for the block containing `lt` (lookupBlock mode 2) and checks its header proof.
func (o *oracle) lookupByLt(ctx context.Context, id *ton.BlockIDExt, lt uint64) error {
	resp, err := o.query(ctx, ton.LookupBlock{
		Mode: 2,
		ID:   &ton.BlockInfoShort{Workchain: id.Workchain, Shard: id.Shard, Seqno: int32(id.SeqNo)},
		LT:   lt,
	})
	if err != nil {
		return fmt.Errorf("lookupBlock by lt %d (block %s): %w", lt, idStr(id), err)
	}
	h, ok := resp.(ton.BlockHeader)
	if !ok {
		return fmt.Errorf("lookupBlock by lt: answer %T", resp)
	}
	if !h.ID.Equals(id) {
		return fmt.Errorf("lookupBlock by lt %d answered %s, want %s", lt, idStr(h.ID), idStr(id))
	}
	if o.checkHeaderProof("lookupBlock(lt)", id, h) != nil {
		o.rep.ok("lookupBlock.lt")
	}
	return nil
}

// blockTransactions lists a block's transactions page by page (proofs checked by tonutils-go), then
// fetches each with getOneTransaction (proof checked) and compares.
func (o *oracle) blockTransactions(ctx context.Context, id *ton.BlockIDExt, data *tlb.Block, seen map[string]*txSeen) int {
	var all []ton.TransactionShortInfo
	var after *ton.TransactionID3
	for page := 0; ; page++ {
		list, more, err := o.api.GetBlockTransactionsV2(ctx, id, txPageSize, after)
		if err != nil {
			o.rep.fail("listBlockTransactions %s: %v", idStr(id), err)
			return 0
		}
		o.rep.ok("listBlockTransactions.page")
		all = append(all, list...)
		if !more {
			break
		}
		if len(list) == 0 {
			o.rep.fail("listBlockTransactions %s: incomplete with an empty page", idStr(id))
			return 0
		}
		after = list[len(list)-1].ID3()
		if page > 1000 {
			o.rep.fail("listBlockTransactions %s: paging does not end", idStr(id))
			return 0
		}
	}
	// order: by account, then lt, no duplicates
	for i := 1; i < len(all); i++ {
		c := bytes.Compare(all[i-1].Account, all[i].Account)
		if c > 0 || (c == 0 && all[i-1].LT >= all[i].LT) {
			o.rep.fail("listBlockTransactions %s: ids out of order at %d", idStr(id), i)
			break
		}
	}
	info := &data.BlockInfo
	for _, t := range all {
		o.rep.ok("listBlockTransactions.txProof")
		addr := addrOf(id.Workchain, t.Account)
		if id.Workchain != -1 && !shardContains(id.Shard, t.Account) {
			o.rep.fail("block %s lists a transaction of %s outside its shard", idStr(id), addr.StringRaw())
		}
		if t.LT < info.StartLt || t.LT > info.EndLt {
			o.rep.fail("block %s: tx lt %d outside [%d, %d]", idStr(id), t.LT, info.StartLt, info.EndLt)
		}
		tx, err := o.api.GetTransaction(ctx, id, addr, t.LT)
		if err != nil {
			o.rep.fail("getOneTransaction %s %s lt %d: %v", idStr(id), addr.StringRaw(), t.LT, err)
			continue
		}
		switch {
		case !bytes.Equal(tx.Hash, t.Hash):
			o.rep.fail("getOneTransaction %s lt %d: hash %x, listed %x", addr.StringRaw(), t.LT, tx.Hash, t.Hash)
		case tx.LT != t.LT || !bytes.Equal(tx.AccountAddr, t.Account):
			o.rep.fail("getOneTransaction %s lt %d: transaction of %x lt %d", addr.StringRaw(), t.LT, tx.AccountAddr, tx.LT)
		case tx.Now != info.GenUtime:
			o.rep.fail("getOneTransaction %s lt %d: now %d, block gen_utime %d", addr.StringRaw(), t.LT, tx.Now, info.GenUtime)
		default:
			o.rep.ok("getOneTransaction")
		}
		key := addr.StringRaw()
		s := seen[key]
		if s == nil {
			s = &txSeen{addr: addr, all: map[uint64][]byte{}}
			seen[key] = s
		}
		s.all[t.LT] = t.Hash
		if t.LT > s.lt {
			s.lt, s.hash = t.LT, t.Hash
		}
	}
	return len(all)
}

// accountChecks reads every account that had a transaction in this step at the masterchain block: its state
// with proofs (last transaction = the newest one the blocks showed), its transaction list (hash chain),
// and its get-methods.
func (o *oracle) accountChecks(ctx context.Context, mc *ton.BlockIDExt, seen map[string]*txSeen) {
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := seen[k]
		acc, err := o.api.GetAccount(ctx, mc, s.addr)
		if err != nil {
			o.rep.fail("getAccountState %s at %s: %v", k, idStr(mc), err)
			continue
		}
		if !acc.IsActive && acc.State == nil {
			// account_none after its transactions (e.g. a deleted account): tonutils-go proved absence
			o.rep.ok("getAccountState.none")
			continue
		}
		if acc.LastTxLT != s.lt || !bytes.Equal(acc.LastTxHash, s.hash) {
			o.rep.fail("getAccountState %s at %s: last tx %d:%x, the blocks' newest is %d:%x", k, idStr(mc), acc.LastTxLT, acc.LastTxHash, s.lt, s.hash)
			continue
		}
		o.rep.ok("getAccountState")

		// getTransactions from the proven last transaction: tonutils-go checks the hash chain
		list, err := o.api.ListTransactions(ctx, s.addr, 16, acc.LastTxLT, acc.LastTxHash)
		if err != nil {
			o.rep.fail("getTransactions %s from %d: %v", k, acc.LastTxLT, err)
		} else {
			got := map[uint64][]byte{}
			for i, tx := range list {
				got[tx.LT] = tx.Hash
				if i > 0 && (list[i-1].LT != tx.PrevTxLT || !bytes.Equal(list[i-1].Hash, tx.PrevTxHash)) {
					o.rep.fail("getTransactions %s: tx %d does not link to the previous one", k, tx.LT)
				}
			}
			// every transaction of this step the list reaches (all of them unless it is a full page)
			for lt, h := range s.all {
				if g, ok := got[lt]; ok && !bytes.Equal(g, h) {
					o.rep.fail("getTransactions %s: lt %d hash %x, block lists %x", k, lt, g, h)
				} else if !ok && (len(list) < 16 || lt >= list[0].LT) {
					o.rep.fail("getTransactions %s: lt %d missing", k, lt)
				}
			}
			o.rep.ok("getTransactions")
		}

		if acc.State == nil || acc.State.Status != tlb.AccountStatusActive {
			continue
		}
		o.getMethods(ctx, mc, s.addr)
	}
}

func (o *oracle) getMethods(ctx context.Context, mc *ton.BlockIDExt, addr *address.Address) {
	raw := addr.StringRaw()
	if _, ok := o.wallets[raw]; ok {
		res, err := o.api.RunGetMethod(ctx, mc, addr, "seqno")
		if err != nil {
			o.rep.fail("runSmcMethod seqno %s at %s: %v", raw, idStr(mc), err)
		} else if n, err := res.Int(0); err != nil || n.Sign() < 0 {
			o.rep.fail("runSmcMethod seqno %s: result %v (%v)", raw, res.AsTuple(), err)
		} else {
			o.rep.ok("runSmcMethod.seqno")
		}
		res, err = o.api.RunGetMethod(ctx, mc, addr, "get_public_key")
		if err != nil {
			o.rep.fail("runSmcMethod get_public_key %s: %v", raw, err)
		} else if _, err := res.Int(0); err != nil {
			o.rep.fail("runSmcMethod get_public_key %s: %v", raw, err)
		} else {
			o.rep.ok("runSmcMethod.get_public_key")
		}
		return
	}
	isJetton, known := o.jettonKnown[raw]
	if known && !isJetton {
		return
	}
	master := jetton.NewJettonMasterClient(o.api, addr)
	data, err := master.GetJettonDataAtBlock(ctx, mc)
	if err != nil {
		var ce ton.ContractExecError
		if !known && errors.As(err, &ce) {
			o.jettonKnown[raw] = false // not a jetton master (e.g. a jetton wallet or an NFT)
			o.rep.ok("runSmcMethod.notJettonMaster")
			return
		}
		o.rep.fail("runSmcMethod get_jetton_data %s at %s: %v", raw, idStr(mc), err)
		return
	}
	o.jettonKnown[raw] = true
	if data.TotalSupply == nil || data.TotalSupply.Sign() < 0 || data.WalletCode == nil {
		o.rep.fail("get_jetton_data %s: supply %v, wallet code %v", raw, data.TotalSupply, data.WalletCode != nil)
		return
	}
	o.rep.ok("runSmcMethod.get_jetton_data")
	if data.AdminAddr == nil || data.AdminAddr.IsAddrNone() {
		return
	}
	jw, err := master.GetJettonWalletAtBlock(ctx, data.AdminAddr, mc)
	if err != nil {
		o.rep.fail("runSmcMethod get_wallet_address %s (owner %s): %v", raw, data.AdminAddr.StringRaw(), err)
		return
	}
	o.rep.ok("runSmcMethod.get_wallet_address")
	if acc, err := o.api.GetAccount(ctx, mc, jw.Address()); err != nil {
		o.rep.fail("getAccountState %s (jetton wallet): %v", jw.Address().StringRaw(), err)
		return
	} else if acc.State == nil || acc.State.Status != tlb.AccountStatusActive {
		return // the admin holds no jetton wallet
	}
	bal, err := jw.GetBalanceAtBlock(ctx, mc)
	if err != nil {
		o.rep.fail("runSmcMethod get_wallet_data %s: %v", jw.Address().StringRaw(), err)
		return
	}
	if bal.Sign() < 0 || bal.Cmp(data.TotalSupply) > 0 {
		o.rep.fail("get_wallet_data %s: balance %s, supply %s", jw.Address().StringRaw(), bal, data.TotalSupply)
		return
	}
	o.rep.ok("runSmcMethod.get_wallet_data")
}

// probe reads accounts named up front (the genesis wallets, the activity's jetton masters) at a masterchain
// block whether or not they had a transaction: state with proofs, then their get-methods.
func (o *oracle) probe(ctx context.Context, mc *ton.BlockIDExt, addrs []*address.Address) {
	for _, a := range addrs {
		acc, err := o.api.GetAccount(ctx, mc, a)
		if err != nil {
			o.rep.fail("getAccountState %s at %s: %v", a.StringRaw(), idStr(mc), err)
			continue
		}
		o.rep.ok("getAccountState.probe")
		if acc.State != nil && acc.State.Status == tlb.AccountStatusActive {
			o.getMethods(ctx, mc, a)
		}
	}
	// an account that does not exist: absence proven, get-methods exit -256
	none := addrOf(0, bytes.Repeat([]byte{0xa5}, 32))
	if acc, err := o.api.GetAccount(ctx, mc, none); err != nil {
		o.rep.fail("getAccountState %s (no such account) at %s: %v", none.StringRaw(), idStr(mc), err)
	} else if acc.IsActive || acc.State != nil {
		o.rep.fail("getAccountState %s (no such account): answered a state", none.StringRaw())
	} else {
		o.rep.ok("getAccountState.missing")
	}
	var ce ton.ContractExecError
	if _, err := o.api.RunGetMethod(ctx, mc, none, "seqno"); !errors.As(err, &ce) || ce.Code != ton.ErrCodeContractNotInitialized {
		o.rep.fail("runSmcMethod on %s (no such account): %v, want exit code -256", none.StringRaw(), err)
	} else {
		o.rep.ok("runSmcMethod.missing")
	}
}

// step checks masterchain block `seqno`; prev is the checked block seqno-1 (its shard tops in prevTops).
func (o *oracle) step(ctx context.Context, seqno uint32, prev *ton.BlockIDExt, prevTops map[int64]*ton.BlockIDExt, wantShards int) (*ton.BlockIDExt, map[int64]*ton.BlockIDExt, error) {
	w := o.api.WaitForBlock(seqno)
	id, err := w.LookupBlock(ctx, -1, mcShard, seqno)
	if err != nil {
		return nil, nil, fmt.Errorf("lookupBlock mc %d: %w", seqno, err)
	}
	o.rep.ok("lookupBlock.mc")

	last, err := o.api.GetMasterchainInfo(ctx)
	if err != nil {
		o.rep.fail("getMasterchainInfo: %v", err)
	} else if last.Workchain != -1 || last.Shard != mcShard || last.SeqNo < seqno {
		o.rep.fail("getMasterchainInfo: last %s while block %d exists", idStr(last), seqno)
	} else {
		o.rep.ok("getMasterchainInfo")
	}
	if cur, err := o.api.CurrentMasterchainInfo(ctx); err != nil {
		o.rep.fail("currentMasterchainInfo: %v", err)
	} else if cur.Workchain != -1 || cur.Shard != mcShard {
		o.rep.fail("currentMasterchainInfo: %s", idStr(cur))
	} else {
		o.rep.ok("currentMasterchainInfo")
	}

	// header with proof (tonutils-go unwraps it against the root hash) and the full block
	if h, err := o.api.GetBlockHeader(ctx, id); err != nil {
		o.rep.fail("getBlockHeader %s: %v", idStr(id), err)
	} else if err := checkInfo(h, id); err != nil {
		o.rep.fail("getBlockHeader %s: %v", idStr(id), err)
	} else {
		o.rep.ok("getBlockHeader")
	}
	data, err := o.api.GetBlockData(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("getBlock %s: %w", idStr(id), err)
	}
	if err := checkInfo(&data.BlockInfo, id); err != nil {
		return nil, nil, fmt.Errorf("getBlock %s: %w", idStr(id), err)
	}
	parents, err := ton.GetParentBlocks(&data.BlockInfo)
	if err != nil || len(parents) != 1 || (prev != nil && !parents[0].Equals(prev)) {
		return nil, nil, fmt.Errorf("block %s: prev_ref does not name %s (%v)", idStr(id), idStr(prev), err)
	}
	o.rep.ok("getBlock.mc")
	if err := o.lookupByLt(ctx, id, data.BlockInfo.StartLt); err != nil {
		o.rep.fail("%v", err)
	}

	// shards: tops from getAllShardsInfo (proof checked), walked back to the previous tops
	shards, err := o.api.GetBlockShardsInfo(ctx, id)
	if err != nil {
		return nil, nil, fmt.Errorf("getAllShardsInfo %s: %w", idStr(id), err)
	}
	o.rep.ok("getAllShardsInfo")
	if len(shards) != wantShards {
		o.rep.fail("getAllShardsInfo %s: %d shards, want %d", idStr(id), len(shards), wantShards)
	}
	tops := map[int64]*ton.BlockIDExt{}
	seen := map[string]*txSeen{}
	for _, top := range shards {
		tops[top.Shard] = top
		var blocks []walked
		blocks, err = o.walkShard(ctx, top, prevTops[top.Shard])
		if err != nil {
			o.rep.fail("%v", err)
			continue
		}
		// the shard block's master_ref must name a masterchain block before this one
		for _, b := range blocks {
			mr := b.data.BlockInfo.MasterRef
			if mr.SeqNo >= seqno {
				o.rep.fail("shard block %s: master_ref %d not before masterchain block %d", idStr(b.id), mr.SeqNo, seqno)
			} else if int(mr.SeqNo) < len(o.mcBlocks) && o.mcBlocks[mr.SeqNo] != nil && !bytes.Equal(o.mcBlocks[mr.SeqNo].RootHash, mr.RootHash) {
				o.rep.fail("shard block %s: master_ref %d root hash differs", idStr(b.id), mr.SeqNo)
			}
		}
		sk := fmt.Sprintf("%d:%016x", top.Workchain, uint64(top.Shard))
		for i := len(blocks) - 1; i >= 0; i-- {
			n := o.blockTransactions(ctx, blocks[i].id, blocks[i].data, seen)
			o.shardTxs[sk] += n
			o.shardBlocks[sk]++
			o.rep.ok("shardBlock")
		}
	}
	o.blockTransactions(ctx, id, data, seen)
	o.accountChecks(ctx, id, seen)
	return id, tops, nil
}

// config reads the whole configuration and a few params at a masterchain block (tonutils-go always checks
// the state proof and the config proof).
func (o *oracle) config(ctx context.Context, id *ton.BlockIDExt, all bool) {
	if all {
		cfg, err := o.api.GetBlockchainConfig(ctx, id)
		if err != nil {
			o.rep.fail("getConfigAll %s: %v", idStr(id), err)
			return
		}
		for _, p := range []int32{0, 1, 12, 15, 20, 21, 24, 25, 28, 34} {
			if cfg.Get(p) == nil {
				o.rep.fail("getConfigAll %s: param %d missing", idStr(id), p)
			}
		}
		o.rep.ok("getConfigAll")
		return
	}
	cfg, err := o.api.GetBlockchainConfig(ctx, id, 0, 8, 34)
	if err != nil {
		o.rep.fail("getConfigParams %s: %v", idStr(id), err)
		return
	}
	var vs tlb.ValidatorSetAny
	if c := cfg.Get(34); c == nil {
		o.rep.fail("getConfigParams %s: param 34 missing", idStr(id))
	} else if err := tlb.Parse(&vs, c); err != nil {
		o.rep.fail("getConfigParams %s: param 34: %v", idStr(id), err)
	} else {
		o.rep.ok("getConfigParams")
	}
}

// ---- the wallet transfers ---------------------------------------------------------------------------------

func walletVersion(v string) (wallet.VersionConfig, error) {
	switch v {
	case "v3r2":
		return wallet.V3R2, nil
	case "v4r2":
		return wallet.V4R2, nil
	case "v5r1":
		return wallet.ConfigV5R1Final{NetworkGlobalID: devnetGlobal, Workchain: 0}, nil
	}
	return nil, fmt.Errorf("unknown wallet version %q", v)
}

// transfer sends `amount` from the wallet `from` to `to` with tonutils-go's wallet package and waits until the
// wallet's transaction and the recipient's transaction are on chain.
func (o *oracle) transfer(ctx context.Context, from walletEntry, to *address.Address, amount tlb.Coins) error {
	ver, err := walletVersion(from.Version)
	if err != nil {
		return err
	}
	w, err := wallet.FromSeed(o.api, from.Mnemonic, ver)
	if err != nil {
		return fmt.Errorf("wallet from mnemonic: %w", err)
	}
	if w.WalletAddress().StringRaw() != from.Raw {
		return fmt.Errorf("%s wallet: tonutils-go derives %s, wallets.json says %s", from.Version, w.WalletAddress().StringRaw(), from.Raw)
	}
	o.rep.ok("wallet.address")
	comment := "tonutils-go oracle " + from.Version
	tx, blk, err := w.TransferWaitTransaction(ctx, to, amount, comment)
	if err != nil {
		return fmt.Errorf("%s transfer: %w", from.Version, err)
	}
	desc, ok := tx.Description.(tlb.TransactionDescriptionOrdinary)
	if !ok {
		return fmt.Errorf("%s transfer: description %T", from.Version, tx.Description)
	}
	if vm, ok := desc.ComputePhase.Phase.(tlb.ComputePhaseVM); !ok || !vm.Success || desc.Aborted {
		return fmt.Errorf("%s transfer: compute phase %+v, aborted %v", from.Version, desc.ComputePhase.Phase, desc.Aborted)
	}
	if tx.IO.Out == nil {
		return fmt.Errorf("%s transfer: no out message", from.Version)
	}
	outs, err := tx.IO.Out.ToSlice()
	if err != nil || len(outs) != 1 || outs[0].MsgType != tlb.MsgTypeInternal {
		return fmt.Errorf("%s transfer: out messages %d (%v)", from.Version, len(outs), err)
	}
	out := outs[0].AsInternal()
	if !out.DstAddr.Equals(to) || out.Amount.Nano().Cmp(amount.Nano()) != 0 || out.Comment() != comment {
		return fmt.Errorf("%s transfer: out message to %s amount %s comment %q", from.Version, out.DstAddr, out.Amount, out.Comment())
	}
	o.rep.ok("wallet.transfer.sent")

	// the recipient's transaction with our message: scan its proven account state and transaction list
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		mc, err := o.api.GetMasterchainInfo(ctx)
		if err != nil || mc.SeqNo <= blk.SeqNo {
			continue
		}
		acc, err := o.api.WaitForBlock(mc.SeqNo).GetAccount(ctx, mc, to)
		if err != nil {
			return fmt.Errorf("%s transfer: recipient state: %w", from.Version, err)
		}
		if acc.LastTxLT <= out.CreatedLT {
			continue
		}
		list, err := o.api.ListTransactions(ctx, to, 16, acc.LastTxLT, acc.LastTxHash)
		if err != nil {
			return fmt.Errorf("%s transfer: recipient transactions: %w", from.Version, err)
		}
		for _, rt := range list {
			if rt.IO.In == nil || rt.IO.In.MsgType != tlb.MsgTypeInternal {
				continue
			}
			in := rt.IO.In.AsInternal()
			if in.CreatedLT == out.CreatedLT && in.SrcAddr.Equals(w.WalletAddress()) {
				if in.Amount.Nano().Cmp(amount.Nano()) != 0 || in.Comment() != comment {
					return fmt.Errorf("%s transfer: recipient got %s %q", from.Version, in.Amount, in.Comment())
				}
				o.rep.ok("wallet.transfer.landed")
				o.rep.info("transfer."+from.Version, map[string]any{
					"from": from.Raw, "to": to.StringRaw(), "senderTxLt": tx.LT, "recipientTxLt": rt.LT,
					"mcSeqno": blk.SeqNo,
				})
				return nil
			}
		}
	}
	return fmt.Errorf("%s transfer: the recipient shows no transaction with the message within 60 s", from.Version)
}

// ---- masterchain proof chains and signatures -------------------------------------------------------------

// secureStart: tonutils-go with ProofCheckPolicySecure and the global config's init block as trusted block.
// tonutils-go checks a forward link's config proof as a proof of a key *block*, so it cannot start at a zero state;
// the devnet's global config names its first key block (masterchain block 1) as init block.
func (o *oracle) secureStart(ctx context.Context) bool {
	o.sec.SetTrustedBlockFromConfig(o.cfg)
	last, err := o.sec.GetMasterchainInfo(ctx)
	if err != nil {
		o.rep.info("secureFromInitBlock", "refused by tonutils-go: "+err.Error())
		return false
	}
	o.rep.info("secureFromInitBlock", "accepted up to "+idStr(last))
	o.rep.ok("secure.getMasterchainInfo")
	return true
}

func zeroStateID(cfg *liteclient.GlobalConfig) *ton.BlockIDExt {
	z := cfg.Validator.ZeroState
	return &ton.BlockIDExt{Workchain: z.Workchain, Shard: z.Shard, SeqNo: z.SeqNo, RootHash: z.RootHash, FileHash: z.FileHash}
}

// signaturesFromZeroState checks the link tonutils-go never checks itself (it starts at a key block), made of its
// own primitives: getBlockProof(zero state -> target) must be complete and start with a forward link from the zero
// state (to the first key block, block 1, the config's init block; or to the target when that is block 1) whose
// dest proof is a header proof of that block, whose config proof is a Merkle proof of the zero state holding config
// params 28 and 34, and whose signatures verify (ton.CheckBlockSignatures) against the main validators of that set
// (ton.GetMainValidators). The links after it start at a key block: ProofCheckPolicySecure checks those.
func (o *oracle) signaturesFromZeroState(ctx context.Context, target *ton.BlockIDExt) error {
	zs := zeroStateID(o.cfg)
	part, err := o.api.GetBlockProof(ctx, zs, target)
	if err != nil {
		return fmt.Errorf("getBlockProof: %w", err)
	}
	if !part.Complete || !part.From.Equals(zs) || !part.To.Equals(target) || len(part.Steps) == 0 {
		return fmt.Errorf("getBlockProof: complete=%v from %s to %s, %d links", part.Complete, idStr(part.From), idStr(part.To), len(part.Steps))
	}
	fwd, ok := part.Steps[0].(ton.BlockLinkForward)
	if !ok || !fwd.From.Equals(zs) || fwd.To == nil || fwd.To.Workchain != -1 || fwd.To.SeqNo == 0 {
		return fmt.Errorf("getBlockProof: link %T is not a forward link from the zero state to a masterchain block", part.Steps[0])
	}
	if !fwd.To.Equals(target) && !fwd.ToKeyBlock {
		return fmt.Errorf("getBlockProof: the link from the zero state ends at %s, neither the target nor a key block", idStr(fwd.To))
	}
	target = fwd.To
	destProof, err := cell.FromBOC(fwd.DestProof)
	if err != nil {
		return fmt.Errorf("dest proof: %w", err)
	}
	toBlock, err := ton.CheckBlockProof(destProof, target.RootHash)
	if err != nil {
		return fmt.Errorf("dest proof: %w", err)
	}
	if err := checkInfo(&toBlock.BlockInfo, target); err != nil {
		return fmt.Errorf("dest proof: %w", err)
	}
	if toBlock.BlockInfo.KeyBlock != fwd.ToKeyBlock {
		return fmt.Errorf("dest proof: key_block %v, link says %v", toBlock.BlockInfo.KeyBlock, fwd.ToKeyBlock)
	}
	configProof, err := cell.FromBOC(fwd.ConfigProof)
	if err != nil {
		return fmt.Errorf("config proof: %w", err)
	}
	stateRoot, err := cell.UnwrapProof(configProof, zs.RootHash)
	if err != nil {
		return fmt.Errorf("config proof vs the zero state: %w", err)
	}
	var state tlb.ShardStateUnsplit
	loader, err := stateRoot.BeginParse()
	if err != nil {
		return fmt.Errorf("config proof: %w", err)
	}
	if err := tlb.LoadFromCellAsProof(&state, loader, false); err != nil {
		return fmt.Errorf("config proof: zero state: %w", err)
	}
	if state.McStateExtra == nil {
		return fmt.Errorf("config proof: zero state without McStateExtra")
	}
	var extra tlb.McStateExtra
	if err := tlb.Parse(&extra, state.McStateExtra); err != nil {
		return fmt.Errorf("config proof: McStateExtra: %w", err)
	}
	param := func(n int64) (*cell.Cell, error) {
		v, err := extra.ConfigParams.Config.Params.LoadValueByIntKey(big.NewInt(n))
		if err != nil {
			return nil, fmt.Errorf("config proof: param %d: %w", n, err)
		}
		c, err := v.ToCell()
		if err != nil {
			return nil, err
		}
		return c.PeekRef(0)
	}
	ccCell, err := param(28)
	if err != nil {
		return err
	}
	vsCell, err := param(34)
	if err != nil {
		return err
	}
	var cc tlb.CatchainConfig
	if err := tlb.Parse(&cc, ccCell); err != nil {
		return fmt.Errorf("config param 28: %w", err)
	}
	var vs tlb.ValidatorSetAny
	if err := tlb.Parse(&vs, vsCell); err != nil {
		return fmt.Errorf("config param 34: %w", err)
	}
	info := &toBlock.BlockInfo
	validators, err := ton.GetMainValidators(target, cc, vs, info.GenCatchainSeqno)
	if err != nil {
		return fmt.Errorf("main validators: %w", err)
	}
	var setHash, ccSeqno uint32
	var sigs []ton.Signature
	switch t := fwd.SignatureSet.(type) {
	case ton.SignatureSet:
		setHash, ccSeqno, sigs = uint32(t.ValidatorSetHash), uint32(t.CatchainSeqno), t.Signatures
	case ton.SignatureSetOrdinary:
		setHash, ccSeqno, sigs = uint32(t.ValidatorSetHash), uint32(t.CatchainSeqno), t.Signatures
	default:
		return fmt.Errorf("signature set %T", fwd.SignatureSet)
	}
	if info.GenValidatorListHashShort != setHash || info.GenCatchainSeqno != ccSeqno {
		return fmt.Errorf("header names validator set %08x / catchain %d, signatures %08x / %d", info.GenValidatorListHashShort, info.GenCatchainSeqno, setHash, ccSeqno)
	}
	if err := ton.CheckBlockSignatures(target, ccSeqno, setHash, sigs, validators); err != nil {
		return fmt.Errorf("signatures: %w", err)
	}
	return nil
}

// ---- main -------------------------------------------------------------------------------------------------

func main() {
	configPath := flag.String("config", "", "TON global config of the devnet (required)")
	walletsPath := flag.String("wallets", "", "the devnet's wallets.json (required with -send-from)")
	sendFrom := flag.String("send-from", "", "comma-separated raw addresses of genesis wallets this oracle may send from (no other sender may use them)")
	blocks := flag.Int("blocks", 100, "masterchain blocks to follow")
	wantShards := flag.Int("shards", 2, "basechain shards the devnet has")
	timeout := flag.Duration("timeout", 5*time.Minute, "the whole run")
	probeList := flag.String("probe", "", "comma-separated raw addresses also read (state, get-methods) every 10 blocks")
	secureMode := flag.String("secure", "report", "ProofCheckPolicySecure from the config's init block: report = say in info whether tonutils-go accepts the chain, require = fail if not, off = no masterchain proof chains at all")
	flag.Parse()
	if *configPath == "" || *blocks < 1 || (*sendFrom != "" && *walletsPath == "") {
		flag.Usage()
		os.Exit(2)
	}

	rep := newReport()
	started := time.Now()
	code := run(rep, *configPath, *walletsPath, *sendFrom, *probeList, *blocks, *wantShards, *timeout, *secureMode)
	rep.info("elapsedMs", time.Since(started).Milliseconds())
	if rep.failed > 0 {
		rep.info("failureCount", rep.failed)
		code = 1
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(rep)
	os.Exit(code)
}

func run(rep *report, configPath, walletsPath, sendFrom, probeList string, blocks, wantShards int, timeout time.Duration, secureMode string) int {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()

	cfg, err := liteclient.GetConfigFromFile(configPath)
	if err != nil {
		rep.fail("global config: %v", err)
		return 1
	}
	pool := liteclient.NewConnectionPool()
	defer pool.Stop()
	if err := pool.AddConnectionsFromConfig(ctx, cfg); err != nil {
		rep.fail("connect: %v", err)
		return 1
	}
	o := &oracle{
		rep:         rep,
		api:         ton.NewAPIClient(pool, ton.ProofCheckPolicyFast),
		sec:         ton.NewAPIClient(pool, ton.ProofCheckPolicySecure),
		cfg:         cfg,
		wallets:     map[string]walletEntry{},
		jettonKnown: map[string]bool{},
		shardTxs:    map[string]int{},
		shardBlocks: map[string]int{},
	}
	var senders []walletEntry
	if walletsPath != "" {
		raw, err := os.ReadFile(walletsPath)
		if err != nil {
			rep.fail("wallets file: %v", err)
			return 1
		}
		var list []walletEntry
		if err := json.Unmarshal(raw, &list); err != nil {
			rep.fail("wallets file: %v", err)
			return 1
		}
		for _, w := range list {
			o.wallets[w.Raw] = w
		}
		for _, a := range strings.Split(sendFrom, ",") {
			if a = strings.TrimSpace(a); a == "" {
				continue
			}
			w, ok := o.wallets[a]
			if !ok {
				rep.fail("-send-from %s: not in %s", a, walletsPath)
				return 1
			}
			senders = append(senders, w)
		}
	}

	var probes []*address.Address
	for raw := range o.wallets {
		probes = append(probes, address.MustParseRawAddr(raw))
	}
	for _, a := range strings.Split(probeList, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		addr, err := address.ParseRawAddr(a)
		if err != nil {
			rep.fail("-probe %s: %v", a, err)
			return 1
		}
		probes = append(probes, addr)
	}
	sort.Slice(probes, func(i, j int) bool { return probes[i].StringRaw() < probes[j].StringRaw() })

	// the zero state the server reports must be the config's
	start, err := o.api.GetMasterchainInfo(ctx)
	if err != nil {
		rep.fail("getMasterchainInfo: %v", err)
		return 1
	}
	var mi tl.Serializable
	if err := pool.QueryLiteserver(ctx, ton.GetMasterchainInf{}, &mi); err == nil {
		if m, ok := mi.(ton.MasterchainInfo); !ok || m.Init.Workchain != -1 ||
			!bytes.Equal(m.Init.RootHash, cfg.Validator.ZeroState.RootHash) || !bytes.Equal(m.Init.FileHash, cfg.Validator.ZeroState.FileHash) {
			rep.fail("getMasterchainInfo: init is not the global config's zero state")
		} else {
			rep.ok("getMasterchainInfo.init")
		}
	}

	secureOn := secureMode != "off"
	secureChain := false
	if secureOn {
		secureChain = o.secureStart(ctx)
		if !secureChain && secureMode == "require" {
			rep.fail("ProofCheckPolicySecure from the init block: %v", rep.Info["secureFromInitBlock"])
		}
	}

	first := start.SeqNo + 1
	o.mcBlocks = make([]*ton.BlockIDExt, int(first)+blocks+1)
	o.mcBlocks[start.SeqNo] = start
	prevTops := map[int64]*ton.BlockIDExt{}
	if shards, err := o.api.GetBlockShardsInfo(ctx, start); err != nil {
		rep.fail("getAllShardsInfo %s: %v", idStr(start), err)
		return 1
	} else {
		rep.ok("getAllShardsInfo")
		for _, s := range shards {
			prevTops[s.Shard] = s
		}
	}
	rep.info("firstMcSeqno", first)
	o.config(ctx, start, true)

	// the transfers run alongside, so their blocks are among the followed ones
	var wg sync.WaitGroup
	if len(senders) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, s := range senders {
				to := senders[(i+1)%len(senders)]
				toAddr := address.MustParseRawAddr(to.Raw)
				if len(senders) == 1 {
					toAddr = addrOf(0, bytes.Repeat([]byte{0x42}, 32))
				}
				if err := o.transfer(ctx, s, toAddr, tlb.MustFromTON("0.05")); err != nil {
					rep.fail("%v", err)
				}
			}
		}()
	}

	prev := start
	for seqno := first; seqno < first+uint32(blocks); seqno++ {
		if ctx.Err() != nil {
			rep.fail("timed out at masterchain block %d (%d of %d followed)", seqno, seqno-first, blocks)
			break
		}
		id, tops, err := o.step(ctx, seqno, prev, prevTops, wantShards)
		if err != nil {
			rep.fail("masterchain block %d: %v", seqno, err)
			// go on from whatever the server names as this block
			id, err = o.api.WaitForBlock(seqno).LookupBlock(ctx, -1, mcShard, seqno)
			if err != nil {
				break
			}
			if sh, err := o.api.GetBlockShardsInfo(ctx, id); err == nil {
				tops = map[int64]*ton.BlockIDExt{}
				for _, s := range sh {
					tops[s.Shard] = s
				}
			}
		}
		o.mcBlocks[seqno] = id
		o.config(ctx, id, (seqno-first)%10 == 0)
		if (seqno-first)%10 == 0 {
			o.probe(ctx, id, probes)
		}
		if secureOn {
			// forward: the Secure client's own getMasterchainInfo verifies the chain from its last trusted block
			if secureChain {
				if _, err := o.sec.GetMasterchainInfo(ctx); err != nil {
					rep.fail("ProofCheckPolicySecure getMasterchainInfo after %d: %v", seqno, err)
				} else {
					rep.ok("secure.getMasterchainInfo")
				}
			}
			// forward from the zero state, checked with tonutils-go's primitives: signatures of every block
			if err := o.signaturesFromZeroState(ctx, id); err != nil {
				rep.fail("block %s signed from the zero state: %v", idStr(id), err)
			} else {
				rep.ok("signatures.forwardFromZeroState")
			}
			// backward: from this block to an older one, through prev_blocks of its state (VerifyProofChain)
			back := prev
			if seqno > first+5 {
				back = o.mcBlocks[first+(seqno-first)/2]
			}
			if back != nil && back.SeqNo > 0 {
				if err := o.sec.VerifyProofChain(ctx, id, back); err != nil {
					rep.fail("verifyProofChain back %d -> %d: %v", seqno, back.SeqNo, err)
				} else {
					rep.ok("secure.verifyProofChain.backward")
				}
			}
		}
		prev, prevTops = id, tops
	}
	wg.Wait()
	rep.info("shardTransactions", o.shardTxs)
	rep.info("shardBlocks", o.shardBlocks)
	rep.info("lastMcSeqno", prev.SeqNo)
	jettons := 0
	for _, j := range o.jettonKnown {
		if j {
			jettons++
		}
	}
	rep.info("jettonMasters", jettons)
	if len(o.shardTxs) < wantShards {
		rep.fail("transactions seen on %d shards, want %d", len(o.shardTxs), wantShards)
	}
	for sk, n := range o.shardTxs {
		if n == 0 {
			rep.fail("no transactions on shard %s", sk)
		}
	}
	return 0
}
