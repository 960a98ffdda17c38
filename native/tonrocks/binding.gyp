# The tonrocks addon: one C file over RocksDB's C API. rocksdb-config.mjs finds the headers and library
# (TONGATE_ROCKSDB_DIR, else the system's librocksdb-dev) and reads the header version for version().
{
  "targets": [
    {
      "target_name": "tonrocks",
      "sources": ["tonrocks.c"],
      "include_dirs": ["<!@(node rocksdb-config.mjs include)"],
      "defines": ["NAPI_VERSION=8", "<!@(node rocksdb-config.mjs defines)"],
      "libraries": ["<!@(node rocksdb-config.mjs libs)"],
      "cflags": ["-std=gnu11", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    }
  ]
}
