// The layers of src/ and workers/ as rules (issue 22; src/README.md draws them). Data flows one way: a layer imports
// only the layers below it, never one above or beside it, and no module takes part in an import cycle (type-only
// imports count: a cycle of `import type` lines still ties the modules together for a reader).
//
//   cli                   the commands: argument parsing, then a call into app
//   app                   src/app.ts, the composition root: opens the indexer, starts a processor, builds the API server
//   api | workers         v2, v3, pending, streaming: the HTTP APIs | the queue processors (index-mc-block)
//   http                  the server platform the APIs stand on (keys, limits, errors, explorers)
//   devnet | index        a local chain and the indexer, side by side
//   nodedb                a validator node's database on disk (a block source the index reads, as it reads lite)
//   devnet/store          the devnet's block store format (the devnet writes it; the index and nodedb read it)
//   lite                  the liteserver protocol client and server
//   adnl | db | queue | tvm   transport, storage, jobs, the TVM
//   ton                   TON's data: cells, blocks, messages, addresses, contracts
//   common                errors, config, small utilities
//
// src/devnet/store is a part of its own below devnet: the devnet's other modules build on it like everyone else.
/** @type {string[][]} Lowest first; the folders of one row may not import each other. */
const ROWS = [
  ['common'],
  ['ton'],
  ['adnl', 'db', 'queue', 'tvm'],
  ['lite'],
  ['devnet/store'],
  ['nodedb'],
  ['devnet', 'index'],
  ['http'],
  ['api', 'workers'],
  ['app'],
  ['cli'],
];

/** A part's modules: a folder of src/ (or workers/ at the top), or src/app.ts, the one module with a row of its own. */
const path = (part) => (part === 'workers' ? '^workers/' : part === 'app' ? '^src/app\\.ts$' : `^src/${part}/`);
/** A part's own modules, without the parts nested in it that have a row of their own (devnet/store in devnet). */
const own = (part) => {
  const nested = ROWS.flat().filter((p) => p.startsWith(`${part}/`));
  return { path: path(part), ...(nested.length > 0 ? { pathNot: nested.map(path) } : {}) };
};

const forbidden = [
  {
    name: 'no-circular',
    comment: 'A module that imports itself through others: split out what both sides need.',
    severity: 'error',
    from: { path: '^(src|workers)/' },
    to: { circular: true },
  },
];
ROWS.forEach((row, i) => {
  for (const part of row) {
    const above = ROWS.slice(i + 1).flat();
    const beside = row.filter((p) => p !== part);
    const targets = [...above, ...beside];
    if (targets.length === 0) continue;
    forbidden.push({
      name: `layer-${part.replace('/', '-')}`,
      comment: `${part} imports only the rows below it: ${ROWS.slice(0, i).flat().join(', ') || 'nothing'}.`,
      severity: 'error',
      from: own(part),
      // A target's nested part with a lower row of its own (devnet/store inside devnet) stays allowed.
      to: { path: targets.map(path), pathNot: [part, ...ROWS.slice(0, i).flat()].map(path) },
    });
  }
});

// Within index: src/index/'s subfolders in the order the data flows (src/index/README.md), lowest first. A subfolder
// imports only the rows below it, and none imports the modules at src/index/'s top (index.ts, the barrel;
// index-mc-block.ts, the processor composing them; metrics.ts; health.ts), which may import any subfolder.
/** @type {string[][]} */
const INDEX_ROWS = [
  ['parse'], // the shard-chain walk: pure, over block cells and a fetch function
  ['source'], // the block sources, and collectUnit: what a masterchain seqno commits, walked through parse/
  ['decode'], // a unit into rows: the core tables, the contract decoders (decode/contracts), the rows' shape
  ['write'], // rows into the database with their checkpoint, in one transaction; trace ids onto rows
  // the decoders' I/O (env, stored states, rederive) | decoding in worker threads | off-chain metadata | trace assembly
  ['contracts', 'decode-pool', 'metadata', 'traces'],
  ['actions'], // the classifier, over assembled traces
  ['plan'], // which jobs to enqueue: walker, gaps, tail (starting trace assembly)
];
const indexPart = (part) => `^src/index/${part}/`;
forbidden.push({
  name: 'index-top',
  comment: "src/index/'s subfolders never import its top modules (index.ts, index-mc-block.ts, metrics.ts, health.ts).",
  severity: 'error',
  from: { path: '^src/index/[^/]+/' },
  to: { path: '^src/index/[^/]+\\.ts$' },
});
INDEX_ROWS.forEach((row, i) => {
  for (const part of row) {
    const targets = [...INDEX_ROWS.slice(i + 1).flat(), ...row.filter((p) => p !== part)];
    if (targets.length === 0) continue;
    forbidden.push({
      name: `index-${part}`,
      comment: `src/index/${part}/ imports only these subfolders of src/index: ${INDEX_ROWS.slice(0, i).flat().join(', ') || 'none'}.`,
      severity: 'error',
      from: { path: indexPart(part) },
      to: { path: targets.map(indexPart) },
    });
  }
});

// Within api: v3's renderers are pure functions from rows to JSON. The SQL (column lists, statements) and the functions
// that run it are in src/api/v3/queries/, so render/ never reaches the database.
forbidden.push({
  name: 'v3-render-pure',
  comment:
    'src/api/v3/render/ turns rows into JSON and reads nothing: SQL and the reads that run it go in v3/queries/.',
  severity: 'error',
  from: { path: '^src/api/v3/render/' },
  to: { path: '^src/db/' },
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$|\\.test-util\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
