// tonhash: the representation hashes and depths of a cell table (src/ton/cell/cell-table.ts) computed in one
// native call, with the SHA-256 of the OpenSSL that Node.js itself links and exports.
//
// Why by hand: a cell's representation is ~100 bytes, and node:crypto's one-shot hash costs ~0.7 us a call on
// such an input while the digest itself (SHA-NI) takes ~0.07 us: a block's root check (28,000-87,000 cells) spent
// 90% of its hashing time crossing into C++ and back, one cell at a time. No npm package hashes TON cells natively,
// and a WebAssembly SHA-256 (hash-wasm) has no SHA extensions. Here the whole table is one call: the
// representations are written in C and hashed with OpenSSL's SHA256_* (hardware-accelerated where the CPU has it).
//
// The layout and the rules are cell-table.ts's (it documents the representation); this file mirrors its
// `compute`, `writeRepr` and `checkMerkleLinks` exactly, and test/ton/cell-native-hash.test.ts compares both
// paths on every vector. C and N-API only; the OpenSSL symbols resolve against the node binary at load time
// (node's headers ship openssl/sha.h), so building needs a C compiler and nothing else.
#define OPENSSL_SUPPRESS_DEPRECATED // SHA256_Init/Update/Final: deprecated in 3.0, present, and the direct path
#include <node_api.h>
#include <openssl/opensslv.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ORDINARY = 0, PRUNED_BRANCH = 1, LIBRARY = 2, MERKLE_PROOF = 3, MERKLE_UPDATE = 4 };

typedef struct {
  const uint8_t *bytes;
  size_t bytes_len;
  const int32_t *data_at;
  const uint8_t *d2;
  const uint16_t *bit_len;
  const int32_t *ref_start;
  const int32_t *ref_idx;
  size_t ref_len;
  const uint8_t *kind;
  const uint8_t *mask;
  const int32_t *slot;
  uint8_t *pool;
  size_t pool_len;
  uint16_t *depth_pool;
  size_t depth_len;
  uint8_t *done;
  int32_t count;
} table;

static inline int popcount(unsigned n) { return __builtin_popcount(n & 7); }
static inline int level_of_mask(unsigned m) { return m == 0 ? 0 : 32 - __builtin_clz(m); }
static inline int hash_index(unsigned m, int level) { return popcount(m & ((1u << (level < 3 ? level : 3)) - 1)); }

static inline int in_pruned_data(const table *t, int32_t i, int level) {
  if (t->kind[i] != PRUNED_BRANCH) return 0;
  unsigned m = t->mask[i];
  return hash_index(m, level) != popcount(m);
}

static inline const uint8_t *hash_ptr(const table *t, int32_t i, int level) {
  unsigned m = t->mask[i];
  int k = hash_index(m, level);
  if (in_pruned_data(t, i, level)) {
    int32_t at = t->data_at[i];
    return t->bytes + (t->bit_len[i] == 280 ? at + 1 : at + 2 + k * 32);
  }
  return t->pool + (size_t)(t->slot[i] + (t->kind[i] == PRUNED_BRANCH ? 0 : k)) * 32;
}

static inline unsigned depth_of(const table *t, int32_t i, int level) {
  unsigned m = t->mask[i];
  int k = hash_index(m, level);
  if (in_pruned_data(t, i, level)) {
    int32_t at = t->data_at[i];
    const uint8_t *p = t->bytes + (t->bit_len[i] == 280 ? at + 33 : at + 2 + popcount(m) * 32 + k * 2);
    return ((unsigned)p[0] << 8) | p[1];
  }
  return t->depth_pool[t->slot[i] + (t->kind[i] == PRUNED_BRANCH ? 0 : k)];
}

// A Merkle proof or update states its children's level-0 hashes and depths; 0 when they agree.
static int merkle_links_bad(const table *t, int32_t i) {
  int32_t from = t->ref_start[i], to = t->ref_start[i + 1];
  int n = to - from;
  const uint8_t *at = t->bytes + t->data_at[i] + 1;
  for (int k = 0; k < n; k++) {
    int32_t c = t->ref_idx[from + k];
    if (memcmp(at + k * 32, hash_ptr(t, c, 0), 32) != 0) return 1;
    const uint8_t *d = at + n * 32 + k * 2;
    if ((((unsigned)d[0] << 8) | d[1]) != depth_of(t, c, 0)) return 1;
  }
  return 0;
}

// The layout was checked when the BoC was read (references point forward inside the table, data inside the
// bytes); this guards the native memory against a table built some other way, cell by cell as they are visited.
static const char *cell_bad(const table *t, int32_t i) {
  int32_t from = t->ref_start[i], to = t->ref_start[i + 1];
  if (from < 0 || to < from || to - from > 4 || (size_t)to > t->ref_len) return "bad refStart";
  for (int32_t r = from; r < to; r++)
    if (t->ref_idx[r] <= i || t->ref_idx[r] >= t->count) return "a reference that does not point forward";
  size_t len = ((size_t)t->d2[i] >> 1) + (t->d2[i] & 1);
  if (t->data_at[i] < 0 || (size_t)t->data_at[i] + len > t->bytes_len || len > 128)
    return "cell data outside the bytes";
  if (t->slot[i] < 0 || t->slot[i + 1] - t->slot[i] < (t->kind[i] == PRUNED_BRANCH ? 1 : popcount(t->mask[i]) + 1) ||
      (size_t)t->slot[i + 1] * 32 > t->pool_len || (size_t)t->slot[i + 1] > t->depth_len)
    return "too few hash slots for a cell's levels";
  if (t->kind[i] == PRUNED_BRANCH && len < (t->bit_len[i] == 280 ? 35u : 2u + (size_t)popcount(t->mask[i]) * 34))
    return "pruned branch data too short";
  if ((t->kind[i] == MERKLE_PROOF || t->kind[i] == MERKLE_UPDATE) && len < 1 + (size_t)(to - from) * 34)
    return "Merkle cell data too short";
  return NULL;
}

// Computes cell i's hashes and depths (its children are done); 0, or 1 when its Merkle links disagree.
static int compute(const table *t, int32_t i) {
  unsigned m = t->mask[i];
  int kind = t->kind[i];
  if ((kind == MERKLE_PROOF || kind == MERKLE_UPDATE) && merkle_links_bad(t, i)) return 1;
  int32_t refs_from = t->ref_start[i], refs_to = t->ref_start[i + 1];
  int refs = refs_to - refs_from;
  unsigned d2 = t->d2[i];
  size_t data_len = (d2 >> 1) + (d2 & 1);
  int top = level_of_mask(m);
  int32_t base = t->slot[i];
  int h = 0;
  uint8_t repr[2 + 128 + 4 * 34];
  for (int level = kind == PRUNED_BRANCH ? top : 0; level <= top; level++) {
    if (level != 0 && ((m >> (level - 1)) & 1) == 0) continue;
    size_t n = 0;
    repr[n++] = (uint8_t)(refs + (kind == ORDINARY ? 0 : 8) + 32 * (m & ((1u << level) - 1)));
    repr[n++] = (uint8_t)d2;
    if (h == 0) {
      memcpy(repr + n, t->bytes + t->data_at[i], data_len);
      n += data_len;
    } else {
      memcpy(repr + n, t->pool + (size_t)(base + h - 1) * 32, 32);
      n += 32;
    }
    int child_level = kind == MERKLE_PROOF || kind == MERKLE_UPDATE ? level + 1 : level;
    unsigned depth = 0;
    for (int32_t r = refs_from; r < refs_to; r++) {
      unsigned d = depth_of(t, t->ref_idx[r], child_level);
      repr[n++] = (uint8_t)(d >> 8);
      repr[n++] = (uint8_t)d;
      if (d > depth) depth = d;
    }
    for (int32_t r = refs_from; r < refs_to; r++) {
      memcpy(repr + n, hash_ptr(t, t->ref_idx[r], child_level), 32);
      n += 32;
    }
    SHA256_CTX ctx;
    SHA256_Init(&ctx);
    SHA256_Update(&ctx, repr, n);
    SHA256_Final(t->pool + (size_t)(base + h) * 32, &ctx);
    t->depth_pool[base + h] = (uint16_t)(refs > 0 ? depth + 1 : 0);
    h++;
  }
  t->done[i] = 1;
  return 0;
}

// ---- N-API --------------------------------------------------------------------------------------------------

static napi_value fail(napi_env env, const char *msg) {
  napi_throw_error(env, NULL, msg);
  return NULL;
}

static int typed(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *length) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  napi_typedarray_type type;
  napi_value ab;
  size_t offset;
  if (napi_get_typedarray_info(env, v, &type, length, data, &ab, &offset) != napi_ok) return 0;
  return type == want || (want == napi_uint8_array && type == napi_uint8_clamped_array);
}

#define ARG(k, type, field, len)                                                                                       \
  do {                                                                                                                 \
    void *p_ = NULL;                                                                                                   \
    if (!typed(env, argv[k], type, &p_, len)) return fail(env, "tonhash: argument " #k " (" #field ") has the wrong type"); \
    t.field = p_;                                                                                                      \
  } while (0)

// hashCells(bytes, dataAt, d2, bitLen, refStart, refIdx, kind, mask, slot, pool, depthPool, done, root)
// Hashes every cell not done yet, from the last up (root < 0), or root's subtree. Returns -1, or the index of a
// Merkle cell whose stated links disagree (the caller words the error: cell-table.ts checkMerkleLinks).
static napi_value hash_cells(napi_env env, napi_callback_info info) {
  size_t argc = 13;
  napi_value argv[13];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 13)
    return fail(env, "tonhash: hashCells takes 13 arguments");
  table t;
  size_t count = 0, n = 0, slots = 0;
  ARG(0, napi_uint8_array, bytes, &t.bytes_len);
  ARG(1, napi_int32_array, data_at, &count);
  ARG(2, napi_uint8_array, d2, &n);
  if (n != count) return fail(env, "tonhash: d2 length");
  ARG(3, napi_uint16_array, bit_len, &n);
  if (n != count) return fail(env, "tonhash: bitLen length");
  ARG(4, napi_int32_array, ref_start, &n);
  if (n != count + 1) return fail(env, "tonhash: refStart length");
  ARG(5, napi_int32_array, ref_idx, &t.ref_len);
  ARG(6, napi_uint8_array, kind, &n);
  if (n != count) return fail(env, "tonhash: kind length");
  ARG(7, napi_uint8_array, mask, &n);
  if (n != count) return fail(env, "tonhash: mask length");
  ARG(8, napi_int32_array, slot, &n);
  if (n != count + 1) return fail(env, "tonhash: slot length");
  ARG(9, napi_uint8_array, pool, &t.pool_len);
  ARG(10, napi_uint16_array, depth_pool, &slots);
  t.depth_len = slots;
  ARG(11, napi_uint8_array, done, &n);
  if (n != count) return fail(env, "tonhash: done length");
  t.count = (int32_t)count;
  if (t.pool_len < (size_t)t.slot[count] * 32 || slots < (size_t)t.slot[count])
    return fail(env, "tonhash: pool smaller than the slots");
  if ((size_t)t.ref_start[count] > t.ref_len) return fail(env, "tonhash: refIdx shorter than refStart says");
  int32_t root;
  if (napi_get_value_int32(env, argv[12], &root) != napi_ok || root >= t.count)
    return fail(env, "tonhash: bad root");

  int32_t bad = -1;
  const char *why = NULL;
  if (root < 0) {
    for (int32_t i = t.count - 1; i >= 0 && bad < 0; i--) {
      if (t.done[i]) continue;
      if ((why = cell_bad(&t, i)) != NULL) break;
      if (compute(&t, i)) bad = i;
    }
  } else if (!t.done[root]) {
    // Children first, without recursion; a cell is pushed at most once per parent reference.
    int32_t cap = 64, top = 0;
    int32_t *stack = malloc(sizeof(int32_t) * (size_t)cap);
    if (!stack) return fail(env, "tonhash: out of memory");
    stack[top++] = root;
    while (top > 0 && bad < 0) {
      int32_t i = stack[top - 1];
      if (t.done[i]) {
        top--;
        continue;
      }
      if ((why = cell_bad(&t, i)) != NULL) break;
      int pending = 0;
      for (int32_t r = t.ref_start[i]; r < t.ref_start[i + 1]; r++) {
        int32_t c = t.ref_idx[r];
        if (!t.done[c]) {
          if (top == cap) {
            int32_t *grown = realloc(stack, sizeof(int32_t) * (size_t)(cap *= 2));
            if (!grown) {
              free(stack);
              return fail(env, "tonhash: out of memory");
            }
            stack = grown;
          }
          stack[top++] = c;
          pending = 1;
        }
      }
      if (!pending) {
        top--;
        if (compute(&t, i)) bad = i;
      }
    }
    free(stack);
  }
  if (why) {
    char msg[128];
    snprintf(msg, sizeof msg, "tonhash: %s", why);
    return fail(env, msg);
  }
  napi_value out;
  napi_create_int32(env, bad, &out);
  return out;
}

// ---- reading a BoC's cells ----------------------------------------------------------------------------------

static int exotic_kind(const uint8_t *src, int32_t at, unsigned bits, int refs) {
  if (bits < 8) return -1;
  switch (src[at]) {
  case PRUNED_BRANCH: {
    if (refs != 0) return -1;
    if (bits == 280) return PRUNED_BRANCH;
    unsigned m = bits >= 16 ? src[at + 1] : 0;
    if (m < 1 || m > 7) return -1;
    if (bits != 16 + (unsigned)popcount(m) * (256 + 16)) return -1;
    return PRUNED_BRANCH;
  }
  case LIBRARY:
    return bits == 8 + 256 && refs == 0 ? LIBRARY : -1;
  case MERKLE_PROOF:
    return bits == 8 + 256 + 16 && refs == 1 ? MERKLE_PROOF : -1;
  case MERKLE_UPDATE:
    return bits == 8 + 512 + 32 && refs == 2 ? MERKLE_UPDATE : -1;
  default:
    return -1;
  }
}

static inline uint32_t read_be(const uint8_t *p, int n) {
  uint32_t r = 0;
  for (int b = 0; b < n; b++) r = r * 256 + p[b];
  return r;
}

// readCells(src, header Int32Array [n, sizeBytes, dataOffset, end, hasIdx, indexOffset, offBytes, hasCacheBits],
//           roots Int32Array, dataAt, d2, bitLen, refStart, refIdx, kind, mask, storedMask, storedHashesAt)
// boc-reader.ts's cell loop, checks included: returns the number of references, or -1 when the BoC breaks a rule
// (the caller reads it again in TypeScript to say which).
static napi_value read_cells(napi_env env, napi_callback_info info) {
  size_t argc = 12;
  napi_value argv[12];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 12)
    return fail(env, "tonhash: readCells takes 12 arguments");
  void *p;
  size_t src_len, hn, nroots, len;
  const uint8_t *src;
  const int32_t *hd, *roots;
  int32_t *data_at, *ref_start, *ref_idx, *stored_hashes_at;
  uint8_t *d2s, *kind, *mask, *stored_mask;
  uint16_t *bit_len;
  size_t ref_cap;
#define GET(k, type, var, lenvar)                                                                                      \
  if (!typed(env, argv[k], type, &p, &lenvar)) return fail(env, "tonhash: readCells argument " #k " has the wrong type"); \
  var = p;
  GET(0, napi_uint8_array, src, src_len);
  GET(1, napi_int32_array, hd, hn);
  GET(2, napi_int32_array, roots, nroots);
  if (hn != 8) return fail(env, "tonhash: readCells header");
  int32_t n = hd[0], size_bytes = hd[1], data_offset = hd[2], end = hd[3], has_idx = hd[4], index_offset = hd[5],
          off_bytes = hd[6], has_cache_bits = hd[7];
  if (n < 0 || end < data_offset || (size_t)end > src_len || size_bytes < 1 || size_bytes > 4 || off_bytes < 1 ||
      off_bytes > 8 || (has_idx && ((size_t)index_offset + (size_t)n * (size_t)off_bytes > src_len || index_offset < 0)))
    return fail(env, "tonhash: readCells header out of range");
  GET(3, napi_int32_array, data_at, len);
  if (len != (size_t)n) return fail(env, "tonhash: dataAt length");
  GET(4, napi_uint8_array, d2s, len);
  if (len != (size_t)n) return fail(env, "tonhash: d2 length");
  GET(5, napi_uint16_array, bit_len, len);
  if (len != (size_t)n) return fail(env, "tonhash: bitLen length");
  GET(6, napi_int32_array, ref_start, len);
  if (len != (size_t)n + 1) return fail(env, "tonhash: refStart length");
  GET(7, napi_int32_array, ref_idx, ref_cap);
  GET(8, napi_uint8_array, kind, len);
  if (len != (size_t)n) return fail(env, "tonhash: kind length");
  GET(9, napi_uint8_array, mask, len);
  if (len != (size_t)n) return fail(env, "tonhash: mask length");
  GET(10, napi_uint8_array, stored_mask, len);
  if (len != (size_t)n) return fail(env, "tonhash: storedMask length");
  GET(11, napi_int32_array, stored_hashes_at, len);
  if (len != (size_t)n) return fail(env, "tonhash: storedHashesAt length");
#undef GET
  uint8_t *ref_count = NULL;
  if (has_cache_bits) {
    ref_count = calloc((size_t)n + 1, 1);
    if (!ref_count) return fail(env, "tonhash: out of memory");
    for (size_t r = 0; r < nroots; r++)
      if (roots[r] >= 0 && roots[r] < n && ref_count[roots[r]] < 2) ref_count[roots[r]]++;
  }
  int32_t pos = data_offset, n_refs = 0, ok = 1;
  for (int32_t i = 0; i < n && ok; i++) {
    if (pos + 2 > end) {
      ok = 0;
      break;
    }
    unsigned d1 = src[pos], d2 = src[pos + 1];
    int refs = d1 & 7;
    if (refs > 4) {
      ok = 0;
      break;
    }
    unsigned level_mask = d1 >> 5;
    int32_t hashes_len = (d1 & 16) ? (popcount(level_mask) + 1) * (32 + 2) : 0;
    int32_t data_len = (int32_t)((d2 >> 1) + (d2 & 1));
    int64_t cell_end = (int64_t)pos + 2 + hashes_len + data_len + (int64_t)refs * size_bytes;
    if (cell_end > end) {
      ok = 0;
      break;
    }
    int32_t start = pos + 2 + hashes_len;
    unsigned bits = (unsigned)data_len * 8;
    if (d2 & 1) {
      unsigned last = src[start + data_len - 1];
      if ((last & 0x7f) == 0) {
        ok = 0;
        break;
      }
      bits -= (unsigned)__builtin_ctz(last) + 1;
    }
    data_at[i] = start;
    d2s[i] = (uint8_t)d2;
    bit_len[i] = (uint16_t)bits;
    stored_mask[i] = (uint8_t)level_mask;
    stored_hashes_at[i] = hashes_len > 0 ? pos + 2 : -1;
    ref_start[i] = n_refs;
    int32_t at = start + data_len;
    for (int k = 0; k < refs; k++, at += size_bytes) {
      uint32_t r = read_be(src + at, size_bytes);
      if (r <= (uint32_t)i || r >= (uint32_t)n || (size_t)n_refs >= ref_cap) {
        ok = 0;
        break;
      }
      ref_idx[n_refs++] = (int32_t)r;
      if (ref_count && ref_count[r] < 2) ref_count[r]++;
    }
    if (!ok) break;
    if (d1 & 8) {
      int k = exotic_kind(src, start, bits, refs);
      if (k < 0) {
        ok = 0;
        break;
      }
      kind[i] = (uint8_t)k;
    } else {
      kind[i] = ORDINARY;
    }
    if (has_idx) {
      uint64_t raw = 0;
      for (int b = 0; b < off_bytes; b++) raw = raw * 256 + src[index_offset + (size_t)i * off_bytes + b];
      uint64_t offset = has_cache_bits ? raw / 2 : raw;
      if (offset != (uint64_t)(cell_end - data_offset)) {
        ok = 0;
        break;
      }
    }
    pos = (int32_t)cell_end;
  }
  if (ok) ref_start[n] = n_refs;
  if (ok && pos != end) ok = 0;
  if (ok && ref_count) {
    for (int32_t i = 0; i < n && ok; i++) {
      uint64_t raw = 0;
      for (int b = 0; b < off_bytes; b++) raw = raw * 256 + src[index_offset + (size_t)i * off_bytes + b];
      if ((raw % 2 == 1) != (ref_count[i] > 1)) ok = 0;
    }
  }
  free(ref_count);
  if (ok) {
    // Level masks from the children up (references point forward: a reverse pass sees children first).
    for (int32_t i = n - 1; i >= 0; i--) {
      int32_t from = ref_start[i], to = ref_start[i + 1];
      unsigned m = 0;
      if (kind[i] == PRUNED_BRANCH) m = bit_len[i] == 280 ? 1 : src[data_at[i] + 1];
      else if (kind[i] == MERKLE_PROOF || kind[i] == MERKLE_UPDATE) {
        for (int32_t r = from; r < to; r++) m |= mask[ref_idx[r]];
        m >>= 1;
      } else if (kind[i] == ORDINARY)
        for (int32_t r = from; r < to; r++) m |= mask[ref_idx[r]];
      mask[i] = (uint8_t)m;
    }
  }
  napi_value out;
  napi_create_int32(env, ok ? n_refs : -1, &out);
  return out;
}

// ---- CRC-32C ------------------------------------------------------------------------------------------------

// CRC-32C (Castagnoli, reflected 0x82f63b78), what a BoC may end with: with the CPU's crc32 instruction where it has
// one (SSE4.2), else a table, one byte per step (crc32c.ts's algorithm).
static uint32_t crc_table[256];

static void crc_init(void) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
    crc_table[n] = c;
  }
}

static uint32_t crc32c_table(uint32_t crc, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *p, size_t n) {
  uint64_t c = crc;
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    c = __builtin_ia32_crc32di(c, w);
  }
  uint32_t c32 = (uint32_t)c;
  for (; n > 0; n--, p++) c32 = __builtin_ia32_crc32qi(c32, *p);
  return c32;
}
#endif

static int crc_hw = 0;

// crc32c(bytes): the CRC-32C of the bytes as an unsigned 32-bit number.
static napi_value crc32c(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *p;
  size_t len;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 1 ||
      !typed(env, argv[0], napi_uint8_array, &p, &len))
    return fail(env, "tonhash: crc32c takes one Uint8Array");
  uint32_t crc = 0xffffffffu;
#if defined(__x86_64__)
  if (crc_hw) crc = crc32c_sse42(crc, p, len);
  else
#endif
    crc = crc32c_table(crc, p, len);
  napi_value out;
  napi_create_uint32(env, crc ^ 0xffffffffu, &out);
  return out;
}

// The SHA-256 implementation in use, for benchmarks and logs (OpenSSL's version text).
static napi_value version(napi_env env, napi_callback_info info) {
  napi_value out;
  napi_create_string_utf8(env, OPENSSL_VERSION_TEXT, NAPI_AUTO_LENGTH, &out);
  return out;
}

static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_setup(void) {
  crc_init();
#if defined(__x86_64__)
  __builtin_cpu_init();
  crc_hw = __builtin_cpu_supports("sse4.2");
#endif
}

// Loaded once per thread that imports it (the decode pool's threads too): the shared tables are set up once.
static napi_value init(napi_env env, napi_value exports) {
  pthread_once(&crc_once, crc_setup);
  napi_property_descriptor props[] = {
      {"hashCells", NULL, hash_cells, NULL, NULL, NULL, napi_enumerable, NULL},
      {"crc32c", NULL, crc32c, NULL, NULL, NULL, napi_enumerable, NULL},
      {"readCells", NULL, read_cells, NULL, NULL, NULL, napi_enumerable, NULL},
      {"version", NULL, version, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
