# The tonhash addon: one C file, N-API only; SHA-256 from the OpenSSL inside the node binary (its headers come
# with node's, its symbols resolve against node at load time), so it needs a C compiler and nothing else.
{
  "targets": [
    {
      "target_name": "tonhash",
      "sources": ["tonhash.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-std=gnu11", "-O3", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    }
  ]
}
