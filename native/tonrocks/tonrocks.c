// tonrocks: a small N-API addon over RocksDB's C API, so tongate can read a TON node's RocksDB folders
// (archive indexes, global index, state db, celldb) while the node runs. Node.js npm bindings offer neither
// OpenAsSecondary nor a custom merge operator, and celldb needs both (docs: node-db.md §6).
//
// C and N-API only (no C++), RocksDB C API only: no C++ ABI ties to the library it is built against.
// Every function is synchronous; src/nodedb/kv/rocks.ts gives them an async shape.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <node_api.h>
#include <rocksdb/c.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The merge operator's name: TON's celldb registers its operator under this name and RocksDB writes it into
// OPTIONS; ours behaves the same (node-db.md §3.2), so the names agree.
#define CELL_REFCNT_MERGE_NAME "MergeOperatorAddCellRefcnt"

#define STR2(x) #x
#define STR(x) STR2(x)

enum tr_mode { MODE_PRIMARY, MODE_SECONDARY, MODE_READONLY };
static const char *const mode_names[] = {"primary", "secondary", "readonly"};

typedef struct {
  rocksdb_t *db; // NULL once closed
  rocksdb_readoptions_t *read_opts;
  enum tr_mode mode;
  int has_merge;
  char *path;
} tr_db;

// Tags the externals this addon creates, so a foreign external passed in is refused rather than dereferenced.
static const napi_type_tag db_tag = {0x746f6e726f636b73ULL, 0x64622d68616e646cULL};

// ---- errors ----------------------------------------------------------------------------------------------

static void throw_fmt(napi_env env, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) napi_throw_error(env, NULL, msg);
}

// Wraps an N-API call: on failure, throws (unless something already did) and returns NULL from the caller.
#define NAPI(call)                                                                                                     \
  do {                                                                                                                 \
    napi_status status_ = (call);                                                                                      \
    if (status_ != napi_ok) {                                                                                          \
      const napi_extended_error_info *info_ = NULL;                                                                    \
      napi_get_last_error_info(env, &info_);                                                                           \
      throw_fmt(env, "tonrocks: N-API call failed: %s",                                                                \
                info_ && info_->error_message ? info_->error_message : #call);                                         \
      return NULL;                                                                                                     \
    }                                                                                                                  \
  } while (0)

// Turns a RocksDB error string (malloc'd by RocksDB) into a thrown JS error naming the operation and folder.
static int rocks_failed(napi_env env, char *err, const char *op, const tr_db *h) {
  if (err == NULL) return 0;
  throw_fmt(env, "tonrocks: %s failed in %s (%s): %s", op, h->path, mode_names[h->mode], err);
  rocksdb_free(err);
  return 1;
}

// ---- argument helpers -------------------------------------------------------------------------------------

static napi_value *get_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
  size_t argc = want;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  if (argc < want) {
    throw_fmt(env, "tonrocks: expected %zu arguments, got %zu", want, argc);
    return NULL;
  }
  return argv;
}

static tr_db *get_db(napi_env env, napi_value v, int must_be_open) {
  napi_valuetype t;
  bool tagged = false;
  void *p = NULL;
  if (napi_typeof(env, v, &t) != napi_ok || t != napi_external ||
      napi_check_object_type_tag(env, v, &db_tag, &tagged) != napi_ok || !tagged ||
      napi_get_value_external(env, v, &p) != napi_ok) {
    throw_fmt(env, "tonrocks: expected a database handle from open()");
    return NULL;
  }
  tr_db *h = p;
  if (must_be_open && h->db == NULL) {
    throw_fmt(env, "tonrocks: %s is closed", h->path);
    return NULL;
  }
  return h;
}

static int get_bytes(napi_env env, napi_value v, const char **data, size_t *len, const char *what) {
  bool is_buf = false;
  void *p = NULL;
  if (napi_is_buffer(env, v, &is_buf) != napi_ok || !is_buf || napi_get_buffer_info(env, v, &p, len) != napi_ok) {
    throw_fmt(env, "tonrocks: %s must be a Buffer", what);
    return 0;
  }
  *data = p != NULL ? p : ""; // RocksDB slices need a non-NULL pointer even when empty
  return 1;
}

static int is_nullish(napi_env env, napi_value v) {
  napi_valuetype t;
  return napi_typeof(env, v, &t) == napi_ok && (t == napi_null || t == napi_undefined);
}

static char *get_string(napi_env env, napi_value v, const char *what) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) {
    throw_fmt(env, "tonrocks: %s must be a string", what);
    return NULL;
  }
  char *s = malloc(len + 1);
  if (s == NULL || napi_get_value_string_utf8(env, v, s, len + 1, &len) != napi_ok) {
    free(s);
    throw_fmt(env, "tonrocks: cannot read %s", what);
    return NULL;
  }
  return s;
}

// Reads opts[name]; leaves *out unchanged when the property is absent or undefined.
static int opt_prop(napi_env env, napi_value opts, const char *name, napi_value *out) {
  bool has = false;
  if (napi_has_named_property(env, opts, name, &has) != napi_ok || !has) return 0;
  napi_value v;
  if (napi_get_named_property(env, opts, name, &v) != napi_ok || is_nullish(env, v)) return 0;
  *out = v;
  return 1;
}

static int opt_bool(napi_env env, napi_value opts, const char *name, int dflt) {
  napi_value v;
  bool b = false;
  if (!opt_prop(env, opts, name, &v)) return dflt;
  if (napi_get_value_bool(env, v, &b) != napi_ok) {
    throw_fmt(env, "tonrocks: option %s must be a boolean", name);
    return -1;
  }
  return b ? 1 : 0;
}

static napi_value make_buffer(napi_env env, const char *data, size_t len) {
  napi_value out;
  void *copy;
  NAPI(napi_create_buffer_copy(env, len, len ? data : "", &copy, &out));
  return out;
}

// ---- the cell-refcount merge operator (node-db.md §3.2) ---------------------------------------------------
// A celldb value starts with an int32 LE refcount, or with int32 -1 and then the refcount (the "whole subtree
// as a BoC" form); a Merge operand is an int32 LE delta. Empty operands are no-ops (the node's compaction
// filter drops them). Arithmetic is on uint32 so an overflowing sum wraps instead of being undefined.

static uint32_t get_le32(const char *p) {
  const unsigned char *u = (const unsigned char *)p;
  return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

static void put_le32(char *p, uint32_t v) {
  unsigned char *u = (unsigned char *)p;
  u[0] = v & 0xff;
  u[1] = v >> 8 & 0xff;
  u[2] = v >> 16 & 0xff;
  u[3] = v >> 24 & 0xff;
}

// Sums the deltas; 0 when an operand is neither empty nor 4 bytes (RocksDB then reports Corruption on read).
static int sum_deltas(const char *const *ops, const size_t *lens, int n, uint32_t *sum, int *any) {
  *sum = 0;
  *any = 0;
  for (int i = 0; i < n; i++) {
    if (lens[i] == 0) continue;
    if (lens[i] != 4) return 0;
    *sum += get_le32(ops[i]);
    *any = 1;
  }
  return 1;
}

static char *merge_fail(unsigned char *success, size_t *new_len) {
  *success = 0;
  *new_len = 0;
  return NULL;
}

static char *merge_full(void *state, const char *key, size_t key_len, const char *existing, size_t existing_len,
                        const char *const *ops, const size_t *lens, int n, unsigned char *success, size_t *new_len) {
  (void)state;
  (void)key;
  (void)key_len;
  uint32_t sum;
  int any;
  if (!sum_deltas(ops, lens, n, &sum, &any)) return merge_fail(success, new_len);
  if (existing == NULL || existing_len == 0) {
    // The node never merges into an absent (or empty, i.e. absent) record. Keep what the operands say rather
    // than lose it: a bare 4-byte delta sum, which no cell-record decoder mistakes for a cell (too short);
    // with only empty operands, an empty value, which means "absent" in celldb.
    char *out = malloc(4);
    if (out == NULL) return merge_fail(success, new_len);
    put_le32(out, sum);
    *new_len = any ? 4 : 0;
    *success = 1;
    return out;
  }
  size_t at = 0;
  if (existing_len < 4) return merge_fail(success, new_len);
  if (get_le32(existing) == 0xffffffffu) {
    if (existing_len < 8) return merge_fail(success, new_len);
    at = 4;
  }
  char *out = malloc(existing_len);
  if (out == NULL) return merge_fail(success, new_len);
  memcpy(out, existing, existing_len);
  put_le32(out + at, get_le32(existing + at) + sum);
  *new_len = existing_len;
  *success = 1;
  return out;
}

static char *merge_partial(void *state, const char *key, size_t key_len, const char *const *ops, const size_t *lens,
                           int n, unsigned char *success, size_t *new_len) {
  (void)state;
  (void)key;
  (void)key_len;
  uint32_t sum;
  int any;
  // failing a partial merge is harmless: RocksDB keeps the operands and the full merge reports them
  if (!sum_deltas(ops, lens, n, &sum, &any)) return merge_fail(success, new_len);
  char *out = malloc(4);
  if (out == NULL) return merge_fail(success, new_len);
  put_le32(out, sum);
  *new_len = any ? 4 : 0;
  *success = 1;
  return out;
}

static void merge_free(void *state, const char *value, size_t len) {
  (void)state;
  (void)len;
  free((void *)value);
}

// RocksDB calls the destructor unconditionally (a NULL one crashes at close); there is no state to free.
static void merge_destroy(void *state) { (void)state; }

static const char *merge_name(void *state) {
  (void)state;
  return CELL_REFCNT_MERGE_NAME;
}

// ---- compression names (OPTIONS-file spelling is mapped in src/nodedb/kv/options.ts) ------------------------

static const struct {
  const char *name;
  int type;
} compressions[] = {
    {"none", rocksdb_no_compression},  {"snappy", rocksdb_snappy_compression}, {"zlib", rocksdb_zlib_compression},
    {"bzip2", rocksdb_bz2_compression}, {"lz4", rocksdb_lz4_compression},       {"lz4hc", rocksdb_lz4hc_compression},
    {"xpress", rocksdb_xpress_compression}, {"zstd", rocksdb_zstd_compression},
};
#define N_COMPRESSIONS (sizeof compressions / sizeof compressions[0])

static int compression_type(const char *name) {
  for (size_t i = 0; i < N_COMPRESSIONS; i++)
    if (strcmp(compressions[i].name, name) == 0) return compressions[i].type;
  return -1;
}

// ---- handle lifetime --------------------------------------------------------------------------------------

static void close_db(tr_db *h) {
  if (h->db != NULL) {
    rocksdb_close(h->db);
    h->db = NULL;
  }
  if (h->read_opts != NULL) {
    rocksdb_readoptions_destroy(h->read_opts);
    h->read_opts = NULL;
  }
}

// A handle the program dropped without close(): release the folder (its LOCK, for a primary) at GC.
static void finalize_db(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  tr_db *h = data;
  close_db(h);
  free(h->path);
  free(h);
}

// ---- exported functions -----------------------------------------------------------------------------------

// open(path, { mode, secondaryPath?, mergeOperator?, createIfMissing?, manualWalFlush?, compression? })
static napi_value js_open(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!get_args(env, info, 2, argv)) return NULL;
  napi_value opts = argv[1];
  napi_valuetype t;
  NAPI(napi_typeof(env, opts, &t));
  if (t != napi_object) {
    throw_fmt(env, "tonrocks: open options must be an object");
    return NULL;
  }

  char *path = get_string(env, argv[0], "path");
  if (path == NULL) return NULL;
  char *mode_s = NULL;
  char *secondary = NULL;
  char *compression_s = NULL;
  rocksdb_options_t *o = NULL;
  napi_value result = NULL;
  napi_value v;
  enum tr_mode mode;

  if (!opt_prop(env, opts, "mode", &v) || (mode_s = get_string(env, v, "option mode")) == NULL) {
    throw_fmt(env, "tonrocks: open %s: option mode is required ('primary', 'secondary' or 'readonly')", path);
    goto done;
  }
  if (strcmp(mode_s, "primary") == 0) mode = MODE_PRIMARY;
  else if (strcmp(mode_s, "secondary") == 0) mode = MODE_SECONDARY;
  else if (strcmp(mode_s, "readonly") == 0) mode = MODE_READONLY;
  else {
    throw_fmt(env, "tonrocks: open %s: mode must be 'primary', 'secondary' or 'readonly', got '%s'", path, mode_s);
    goto done;
  }
  int merge = opt_bool(env, opts, "mergeOperator", 0);
  int create = opt_bool(env, opts, "createIfMissing", 0);
  int manual_wal = opt_bool(env, opts, "manualWalFlush", 0);
  if (merge < 0 || create < 0 || manual_wal < 0) goto done;
  if (mode == MODE_SECONDARY) {
    if (!opt_prop(env, opts, "secondaryPath", &v) || (secondary = get_string(env, v, "option secondaryPath")) == NULL) {
      throw_fmt(env, "tonrocks: open %s: a secondary needs option secondaryPath (a folder for its own files)", path);
      goto done;
    }
  }
  int ctype = rocksdb_no_compression; // so that any RocksDB, built with any codecs, can read what we write
  if (opt_prop(env, opts, "compression", &v)) {
    if ((compression_s = get_string(env, v, "option compression")) == NULL) goto done;
    ctype = compression_type(compression_s);
    if (ctype < 0) {
      throw_fmt(env, "tonrocks: open %s: unknown compression '%s'", path, compression_s);
      goto done;
    }
  }

  o = rocksdb_options_create();
  if (merge) {
    // the options take ownership of the operator (a shared_ptr inside), as does each DB opened with them
    rocksdb_options_set_merge_operator(
        o, rocksdb_mergeoperator_create(NULL, merge_destroy, merge_full, merge_partial, merge_free, merge_name));
  }
  if (mode == MODE_PRIMARY) {
    rocksdb_options_set_create_if_missing(o, create ? 1 : 0);
    rocksdb_options_set_manual_wal_flush(o, manual_wal ? 1 : 0);
    rocksdb_options_set_compression(o, ctype);
  }
  // a secondary must keep every table file open: the primary may delete files it still reads (RocksDB's advice)
  if (mode == MODE_SECONDARY) rocksdb_options_set_max_open_files(o, -1);

  char *err = NULL;
  rocksdb_t *db = NULL;
  if (mode == MODE_PRIMARY) db = rocksdb_open(o, path, &err);
  else if (mode == MODE_SECONDARY) db = rocksdb_open_as_secondary(o, path, secondary, &err);
  else db = rocksdb_open_for_read_only(o, path, 0, &err);
  if (err != NULL || db == NULL) {
    throw_fmt(env, "tonrocks: cannot open %s as %s: %s", path, mode_names[mode], err ? err : "unknown error");
    if (err) rocksdb_free(err);
    goto done;
  }

  tr_db *h = calloc(1, sizeof *h);
  if (h == NULL) {
    rocksdb_close(db);
    throw_fmt(env, "tonrocks: out of memory");
    goto done;
  }
  h->db = db;
  h->read_opts = rocksdb_readoptions_create();
  h->mode = mode;
  h->has_merge = merge;
  h->path = path;
  path = NULL;
  if (napi_create_external(env, h, finalize_db, NULL, &result) != napi_ok ||
      napi_type_tag_object(env, result, &db_tag) != napi_ok) {
    finalize_db(env, h, NULL);
    result = NULL;
    throw_fmt(env, "tonrocks: cannot create the database handle");
  }

done:
  if (o) rocksdb_options_destroy(o);
  free(path);
  free(mode_s);
  free(secondary);
  free(compression_s);
  return result;
}

// get(h, key) -> Buffer | null
static napi_value js_get(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!get_args(env, info, 2, argv)) return NULL;
  tr_db *h = get_db(env, argv[0], 1);
  const char *key;
  size_t key_len;
  if (!h || !get_bytes(env, argv[1], &key, &key_len, "key")) return NULL;
  char *err = NULL;
  size_t len = 0;
  char *val = rocksdb_get(h->db, h->read_opts, key, key_len, &len, &err);
  if (rocks_failed(env, err, "get", h)) return NULL;
  napi_value out;
  if (val == NULL) {
    NAPI(napi_get_null(env, &out));
    return out;
  }
  out = make_buffer(env, val, len);
  rocksdb_free(val);
  return out;
}

// multiGet(h, keys[]) -> (Buffer | null)[]; one consistent view for all keys
static napi_value js_multi_get(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!get_args(env, info, 2, argv)) return NULL;
  tr_db *h = get_db(env, argv[0], 1);
  if (!h) return NULL;
  bool is_array = false;
  uint32_t n = 0;
  if (napi_is_array(env, argv[1], &is_array) != napi_ok || !is_array) {
    throw_fmt(env, "tonrocks: multiGet keys must be an array of Buffers");
    return NULL;
  }
  NAPI(napi_get_array_length(env, argv[1], &n));
  napi_value out;
  NAPI(napi_create_array_with_length(env, n, &out));
  if (n == 0) return out;

  size_t slots = n;
  const char **keys = calloc(slots, sizeof *keys);
  size_t *key_lens = calloc(slots, sizeof *key_lens);
  char **vals = calloc(slots, sizeof *vals);
  size_t *val_lens = calloc(slots, sizeof *val_lens);
  char **errs = calloc(slots, sizeof *errs);
  napi_value result = NULL;
  int fetched = 0;
  if (!keys || !key_lens || !vals || !val_lens || !errs) {
    throw_fmt(env, "tonrocks: out of memory");
    goto done;
  }
  for (uint32_t i = 0; i < n; i++) {
    napi_value k;
    char what[48];
    snprintf(what, sizeof what, "multiGet key %u", i);
    if (napi_get_element(env, argv[1], i, &k) != napi_ok || !get_bytes(env, k, &keys[i], &key_lens[i], what))
      goto done;
  }
  rocksdb_multi_get(h->db, h->read_opts, n, keys, key_lens, vals, val_lens, errs);
  fetched = 1;
  for (uint32_t i = 0; i < n; i++) {
    if (errs[i] != NULL) {
      char op[48];
      snprintf(op, sizeof op, "multiGet (key %u)", i);
      rocks_failed(env, errs[i], op, h);
      errs[i] = NULL;
      goto done;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    if (vals[i] == NULL) {
      if (napi_get_null(env, &v) != napi_ok) goto done;
    } else if ((v = make_buffer(env, vals[i], val_lens[i])) == NULL) {
      goto done;
    }
    if (napi_set_element(env, out, i, v) != napi_ok) goto done;
  }
  result = out;

done:
  if (fetched) {
    for (uint32_t i = 0; i < n; i++) {
      if (vals[i]) rocksdb_free(vals[i]);
      if (errs[i]) rocksdb_free(errs[i]);
    }
  }
  free(keys);
  free(key_lens);
  free(vals);
  free(val_lens);
  free(errs);
  return result;
}

// range(h, gte | null, lt | null, limit) -> [key, value][] in bytewise order; limit < 0 = no limit.
// An iterator reads one implicit snapshot taken when it is created (secondaries refuse explicit ones), so the
// result is consistent even while the primary writes.
static napi_value js_range(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (!get_args(env, info, 4, argv)) return NULL;
  tr_db *h = get_db(env, argv[0], 1);
  if (!h) return NULL;
  const char *gte = NULL, *lt = NULL;
  size_t gte_len = 0, lt_len = 0;
  if (!is_nullish(env, argv[1]) && !get_bytes(env, argv[1], &gte, &gte_len, "range gte")) return NULL;
  if (!is_nullish(env, argv[2]) && !get_bytes(env, argv[2], &lt, &lt_len, "range lt")) return NULL;
  int64_t limit = -1;
  if (napi_get_value_int64(env, argv[3], &limit) != napi_ok) {
    throw_fmt(env, "tonrocks: range limit must be a number");
    return NULL;
  }
  napi_value out;
  NAPI(napi_create_array(env, &out));
  if (limit == 0) return out;

  rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
  // the bound points into the caller's Buffer, which lives until this call returns
  if (lt != NULL) rocksdb_readoptions_set_iterate_upper_bound(ro, lt, lt_len);
  rocksdb_iterator_t *it = rocksdb_create_iterator(h->db, ro);
  if (gte != NULL) rocksdb_iter_seek(it, gte, gte_len);
  else rocksdb_iter_seek_to_first(it);
  napi_value result = out;
  uint32_t count = 0;
  for (; rocksdb_iter_valid(it) && (limit < 0 || count < limit); rocksdb_iter_next(it)) {
    size_t kl, vl;
    const char *k = rocksdb_iter_key(it, &kl);
    const char *val = rocksdb_iter_value(it, &vl);
    napi_handle_scope scope;
    if (napi_open_handle_scope(env, &scope) != napi_ok) {
      result = NULL;
      break;
    }
    napi_value pair, kb, vb;
    int ok = napi_create_array_with_length(env, 2, &pair) == napi_ok && (kb = make_buffer(env, k, kl)) != NULL &&
             (vb = make_buffer(env, val, vl)) != NULL && napi_set_element(env, pair, 0, kb) == napi_ok &&
             napi_set_element(env, pair, 1, vb) == napi_ok && napi_set_element(env, out, count, pair) == napi_ok;
    napi_close_handle_scope(env, scope);
    if (!ok) {
      throw_fmt(env, "tonrocks: range: cannot build the result");
      result = NULL;
      break;
    }
    count++;
  }
  char *err = NULL;
  rocksdb_iter_get_error(it, &err);
  if (rocks_failed(env, err, "range", h)) result = NULL;
  rocksdb_iter_destroy(it);
  rocksdb_readoptions_destroy(ro);
  return result;
}

static int require_primary(napi_env env, const tr_db *h, const char *op) {
  if (h->mode == MODE_PRIMARY) return 1;
  throw_fmt(env, "tonrocks: %s: %s is open as %s; only a primary writes", op, h->path, mode_names[h->mode]);
  return 0;
}

// write(h, ops: [kind, key, value][], sync) with kind 0 put, 1 merge, 2 delete; one atomic batch
static napi_value js_write(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  if (!get_args(env, info, 3, argv)) return NULL;
  tr_db *h = get_db(env, argv[0], 1);
  if (!h || !require_primary(env, h, "write")) return NULL;
  bool is_array = false, sync = false;
  uint32_t n = 0;
  if (napi_is_array(env, argv[1], &is_array) != napi_ok || !is_array) {
    throw_fmt(env, "tonrocks: write ops must be an array");
    return NULL;
  }
  if (napi_get_value_bool(env, argv[2], &sync) != napi_ok) {
    throw_fmt(env, "tonrocks: write sync must be a boolean");
    return NULL;
  }
  NAPI(napi_get_array_length(env, argv[1], &n));
  rocksdb_writebatch_t *batch = rocksdb_writebatch_create();
  napi_value result = NULL;
  for (uint32_t i = 0; i < n; i++) {
    napi_value op, kv, keyv, valv;
    int32_t kind = -1;
    bool is_op = false;
    if (napi_get_element(env, argv[1], i, &op) != napi_ok || napi_is_array(env, op, &is_op) != napi_ok || !is_op ||
        napi_get_element(env, op, 0, &kv) != napi_ok || napi_get_value_int32(env, kv, &kind) != napi_ok ||
        kind < 0 || kind > 2 || napi_get_element(env, op, 1, &keyv) != napi_ok) {
      throw_fmt(env, "tonrocks: write op %u must be [kind 0|1|2, key, value]", i);
      goto done;
    }
    const char *key, *val = NULL;
    size_t key_len, val_len = 0;
    char what[40];
    snprintf(what, sizeof what, "write op %u key", i);
    if (!get_bytes(env, keyv, &key, &key_len, what)) goto done;
    if (kind != 2) {
      snprintf(what, sizeof what, "write op %u value", i);
      if (napi_get_element(env, op, 2, &valv) != napi_ok || !get_bytes(env, valv, &val, &val_len, what)) goto done;
    }
    if (kind == 0) rocksdb_writebatch_put(batch, key, key_len, val, val_len);
    else if (kind == 2) rocksdb_writebatch_delete(batch, key, key_len);
    else if (!h->has_merge) {
      // RocksDB would accept the batch and fail later, on read; refuse it here with the reason
      throw_fmt(env, "tonrocks: write op %u is a merge, but %s was opened without the merge operator", i, h->path);
      goto done;
    } else rocksdb_writebatch_merge(batch, key, key_len, val, val_len);
  }
  rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
  rocksdb_writeoptions_set_sync(wo, sync ? 1 : 0);
  char *err = NULL;
  rocksdb_write(h->db, wo, batch, &err);
  rocksdb_writeoptions_destroy(wo);
  if (!rocks_failed(env, err, "write", h) && napi_get_undefined(env, &result) != napi_ok) result = NULL;
done:
  rocksdb_writebatch_destroy(batch);
  return result;
}

// flushWal(h, sync): hands the WAL buffer to the file (manual_wal_flush keeps writes there until this)
static napi_value js_flush_wal(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (!get_args(env, info, 2, argv)) return NULL;
  tr_db *h = get_db(env, argv[0], 1);
  bool sync = false;
  if (!h || !require_primary(env, h, "flushWal")) return NULL;
  if (napi_get_value_bool(env, argv[1], &sync) != napi_ok) {
    throw_fmt(env, "tonrocks: flushWal sync must be a boolean");
    return NULL;
  }
  char *err = NULL;
  rocksdb_flush_wal(h->db, sync ? 1 : 0, &err);
  if (rocks_failed(env, err, "flushWal", h)) return NULL;
  napi_value u;
  NAPI(napi_get_undefined(env, &u));
  return u;
}

// flushMemtable(h): writes the memtable to a table file (tests use it to put base values and merges in
// different layers, as on a live node)
static napi_value js_flush_memtable(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!get_args(env, info, 1, argv)) return NULL;
  tr_db *h = get_db(env, argv[0], 1);
  if (!h || !require_primary(env, h, "flushMemtable")) return NULL;
  rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
  rocksdb_flushoptions_set_wait(fo, 1);
  char *err = NULL;
  rocksdb_flush(h->db, fo, &err);
  rocksdb_flushoptions_destroy(fo);
  if (rocks_failed(env, err, "flushMemtable", h)) return NULL;
  napi_value u;
  NAPI(napi_get_undefined(env, &u));
  return u;
}

// catchUp(h): a secondary replays what the primary has written to its files since; others: nothing to do
static napi_value js_catch_up(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!get_args(env, info, 1, argv)) return NULL;
  tr_db *h = get_db(env, argv[0], 1);
  if (!h) return NULL;
  if (h->mode == MODE_SECONDARY) {
    char *err = NULL;
    rocksdb_try_catch_up_with_primary(h->db, &err);
    if (rocks_failed(env, err, "catchUp", h)) return NULL;
  }
  napi_value u;
  NAPI(napi_get_undefined(env, &u));
  return u;
}

// close(h): idempotent
static napi_value js_close(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (!get_args(env, info, 1, argv)) return NULL;
  tr_db *h = get_db(env, argv[0], 0);
  if (!h) return NULL;
  close_db(h);
  napi_value u;
  NAPI(napi_get_undefined(env, &u));
  return u;
}

// The version of the RocksDB library actually loaded, from its file name (librocksdb.so.7.8.3), since the
// version header is C++ and the C API has no version call; else the header version the build read.
static napi_value js_version(napi_env env, napi_callback_info info) {
  (void)info;
  char version[64] = "";
  Dl_info dl;
  if (dladdr((void *)&rocksdb_open, &dl) != 0 && dl.dli_fname != NULL) {
    char resolved[4096];
    const char *file = realpath(dl.dli_fname, resolved) ? resolved : dl.dli_fname;
    const char *so = strstr(file, "librocksdb.so.");
    unsigned a, b, c;
    char tail;
    if (so != NULL && sscanf(so, "librocksdb.so.%u.%u.%u%c", &a, &b, &c, &tail) == 3)
      snprintf(version, sizeof version, "%u.%u.%u", a, b, c);
  }
#ifdef TONROCKS_ROCKSDB_MAJOR
  if (version[0] == '\0')
    snprintf(version, sizeof version, "%s.%s.%s", STR(TONROCKS_ROCKSDB_MAJOR), STR(TONROCKS_ROCKSDB_MINOR),
             STR(TONROCKS_ROCKSDB_PATCH));
#endif
  napi_value out;
  NAPI(napi_create_string_utf8(env, version[0] ? version : "unknown", NAPI_AUTO_LENGTH, &out));
  return out;
}

// supportedCompressions() -> names of the codecs this RocksDB build was compiled with. RocksDB checks the
// codec at open ("... is not linked with the binary"), so try each on a throwaway in-memory database.
static napi_value js_supported_compressions(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value out;
  NAPI(napi_create_array(env, &out));
  rocksdb_env_t *mem = rocksdb_create_mem_env();
  uint32_t count = 0;
  for (size_t i = 0; i < N_COMPRESSIONS; i++) {
    rocksdb_options_t *o = rocksdb_options_create();
    rocksdb_options_set_env(o, mem);
    rocksdb_options_set_create_if_missing(o, 1);
    rocksdb_options_set_compression(o, compressions[i].type);
    char dir[64];
    snprintf(dir, sizeof dir, "/tonrocks-probe-%s", compressions[i].name);
    char *err = NULL;
    rocksdb_t *db = rocksdb_open(o, dir, &err);
    if (err == NULL && db != NULL) {
      napi_value name;
      if (napi_create_string_utf8(env, compressions[i].name, NAPI_AUTO_LENGTH, &name) == napi_ok)
        napi_set_element(env, out, count++, name);
    }
    if (db != NULL) rocksdb_close(db);
    if (err != NULL) rocksdb_free(err);
    rocksdb_options_destroy(o);
  }
  rocksdb_env_destroy(mem);
  return out;
}

static napi_value init(napi_env env, napi_value exports) {
  const napi_property_descriptor fns[] = {
      {"open", NULL, js_open, NULL, NULL, NULL, napi_enumerable, NULL},
      {"get", NULL, js_get, NULL, NULL, NULL, napi_enumerable, NULL},
      {"multiGet", NULL, js_multi_get, NULL, NULL, NULL, napi_enumerable, NULL},
      {"range", NULL, js_range, NULL, NULL, NULL, napi_enumerable, NULL},
      {"write", NULL, js_write, NULL, NULL, NULL, napi_enumerable, NULL},
      {"flushWal", NULL, js_flush_wal, NULL, NULL, NULL, napi_enumerable, NULL},
      {"flushMemtable", NULL, js_flush_memtable, NULL, NULL, NULL, napi_enumerable, NULL},
      {"catchUp", NULL, js_catch_up, NULL, NULL, NULL, napi_enumerable, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_enumerable, NULL},
      {"version", NULL, js_version, NULL, NULL, NULL, napi_enumerable, NULL},
      {"supportedCompressions", NULL, js_supported_compressions, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  NAPI(napi_define_properties(env, exports, sizeof fns / sizeof fns[0], fns));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
