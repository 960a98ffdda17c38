# tongate's production image: one image for every role (db migrate, walk tail, work, serve, keys, ...), chosen by
# the command; docker-compose.yml runs the whole deployment from it. Build: docker build -t tongate .
#
# Base image: Node 20 on Debian 13 "trixie". The native addon (native/tonrocks) reads a TON node's RocksDB folders
# for --node-db, and the node's tables need RocksDB >= 8.6 (nodes since March 2026 write with 10.10). Debian 12
# bookworm's librocksdb-dev is 7.8.3, too old; trixie's is 9.10. Debian's package on the official trixie-based node
# image is the simplest correct choice: no RocksDB build in the image (long, and one more thing to keep patched),
# security updates come with the distribution, and the library's format support is what the addon reports. A node
# whose tables need a newer RocksDB than 9.10 needs a RocksDB built for it: see TONGATE_ROCKSDB_DIR in
# native/tonrocks/README.md.
ARG NODE_IMAGE=node:20-trixie-slim

# ---- build: production dependencies and the native addons (tonrocks, tonhash), with a compiler and RocksDB's headers
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends build-essential python3 librocksdb-dev \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/build-native.mjs ./scripts/
COPY native/tonrocks ./native/tonrocks
COPY native/tonhash ./native/tonhash
# --omit=dev: production dependencies only. tsx is one of them: it brings esbuild, which compiles the sources to dist/
# in the runtime stage, and runs them directly where dist/ is stale or absent. npm's postinstall (scripts/build-native.mjs) builds native/tonrocks; it never fails an install, so
# the image checks the addon loads and its RocksDB is >= 8.6, and fails the build otherwise.
RUN npm ci --omit=dev --no-audit --no-fund \
  && node -e " \
    const v = require('./native/tonrocks/build/Release/tonrocks.node').version(); \
    const [major, minor] = v.split('.').map(Number); \
    if (!(major > 8 || (major === 8 && minor >= 6))) { console.error('RocksDB ' + v + ' < 8.6'); process.exit(1); } \
    console.log('tonrocks built against RocksDB ' + v); \
    console.log('tonhash built: ' + require('./native/tonhash/build/Release/tonhash.node').version());" \
  && dpkg-query -W -f='${Depends}\n' librocksdb-dev | tr ',' '\n' | grep -o 'librocksdb[0-9][0-9.]*' > /app/rocksdb-runtime-package \
  && test -s /app/rocksdb-runtime-package \
  && npm cache clean --force

# ---- runtime: node, RocksDB's shared library, the production node_modules and the sources; no compiler
FROM ${NODE_IMAGE} AS runtime
# the shared-library package the addon links (librocksdb9.10 on trixie), named by the build stage's librocksdb-dev
COPY --from=build /app/rocksdb-runtime-package /tmp/rocksdb-runtime-package
RUN apt-get update \
  && apt-get install -y --no-install-recommends $(cat /tmp/rocksdb-runtime-package) \
  && rm -rf /var/lib/apt/lists/* /tmp/rocksdb-runtime-package \
  && groupadd --system --gid 10001 tongate \
  && useradd --system --uid 10001 --gid tongate --home-dir /var/lib/tongate --shell /usr/sbin/nologin tongate \
  && install -d -o tongate -g tongate -m 0750 /var/lib/tongate
WORKDIR /app
# TONGATE_DATA: the writable data folder (PGlite when no DATABASE_URL; --node-db-secondary folders go under it too).
# HOST/PORT: serve and up listen on every interface of the container, port 8080.
ENV NODE_ENV=production \
  TONGATE_DATA=/var/lib/tongate \
  HOST=0.0.0.0 \
  PORT=8080
# the code stays owned by root, read-only for the user that runs it
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/native/tonrocks/build/Release/tonrocks.node ./native/tonrocks/build/Release/tonrocks.node
COPY --from=build /app/native/tonhash/build/Release/tonhash.node ./native/tonhash/build/Release/tonhash.node
COPY package.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY workers ./workers
COPY schema ./schema
COPY scripts/build.mjs ./scripts/build.mjs
COPY deploy/docker/healthcheck.mjs ./deploy/docker/healthcheck.mjs
# The CLI compiled to dist/ (esbuild, which tsx brings): commands start without compiling the sources each time;
# bin/tongate.js runs it while its build stamp matches the sources, which in the image never change.
RUN node scripts/build.mjs && test -f dist/build-stamp.json
USER tongate:tongate
EXPOSE 8080
# serve's /healthz by default (TONGATE_HEALTH_URL changes it: walk and work answer on their --metrics-port, and
# `none` turns the check off for one-shot commands); see deploy/docker/healthcheck.mjs
HEALTHCHECK --interval=15s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "/app/deploy/docker/healthcheck.mjs"]
ENTRYPOINT ["node", "/app/bin/tongate.js"]
CMD ["serve"]
