// The deployment (issue 24): Dockerfile, .dockerignore, docker-compose.yml (with its commented node-db variant),
// deploy/systemd/*, and the README's production section that describes them. Nothing here builds an image or
// starts a container (there is no Docker daemon on CI): docker-compose validates the compose file, systemd-analyze
// the units, and every tongate command line in them goes through our own CLI with --help, which parses the
// arguments strictly (an unknown flag or command exits 2) without running anything. The Dockerfile is checked
// statically: its COPY sources, what .dockerignore keeps, the entry point, and that everything the CLI imports at
// run time is in the image and a production dependency.
// Without docker-compose or systemd-analyze those tests fail under CI=true (.ci/run installs both) and are skipped
// with a message elsewhere.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { builtinModules } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'bin', 'tongate.js');
const COMPOSE_FILE = join(ROOT, 'docker-compose.yml');
const SYSTEMD_DIR = join(ROOT, 'deploy', 'systemd');
const ENV_EXAMPLE = join(SYSTEMD_DIR, 'tongate.env.example');
const HEALTHCHECK = join(ROOT, 'deploy', 'docker', 'healthcheck.mjs');
/** Where the units expect node and the checkout (deploy/systemd/README.md). */
const UNIT_NODE = '/usr/bin/node';
const UNIT_CLI = '/opt/tongate/bin/tongate.js';
/** The tongate-work@ instance the tests use (the instance is the worker's metrics port). */
const WORK_INSTANCE = '9102';
const CLI_TIMEOUT_MS = 60_000;

const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tongate-deploy-'));
  tmpDirs.push(d);
  return d;
}

// ---- tools --------------------------------------------------------------------------------------------------------

function tool(cmd: string, args: string[]): string | null {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error) return `${cmd} not found (${r.error.message})`;
  if (r.status !== 0) return `${cmd} ${args.join(' ')} exited with ${r.status}: ${r.stderr.trim()}`;
  return null;
}
const noCompose = tool('docker-compose', ['version']);
const noSystemdAnalyze = tool('systemd-analyze', ['--version']);
const ciHint = 'bash .ci/run installs it (apt-get install docker-compose / systemd)';
if (noCompose && !process.env.CI) console.warn(`docker-compose checks skipped: ${noCompose}; ${ciHint}`);
if (noSystemdAnalyze && !process.env.CI) console.warn(`systemd-analyze checks skipped: ${noSystemdAnalyze}; ${ciHint}`);

// ---- the CLI ------------------------------------------------------------------------------------------------------

/** Runs `node bin/tongate.js ARGS --help`: exit 0 and the help of exactly the command the arguments name. */
function expectCliAccepts(args: string[], where: string): void {
  const r: SpawnSyncReturns<string> = spawnSync(process.execPath, [CLI, ...args, '--help'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: CLI_TIMEOUT_MS,
  });
  const shown = `${where}: tongate ${args.join(' ')} --help`;
  expect(r.status, `${shown} exited ${r.status ?? r.signal}: ${r.stderr.trim()}`).toBe(0);
  // the command path is the leading words; its help must be that command's own, and a command that runs (no
  // "Commands:" list: `tongate walk --help` would exit 0 too, but `walk` alone is not a command that runs)
  const firstFlag = args.findIndex((a) => a.startsWith('-'));
  const path = firstFlag < 0 ? args : args.slice(0, firstFlag);
  expect(path.length, `${shown}: names no command`).toBeGreaterThan(0);
  const usage = r.stdout.split('\n')[0] ?? '';
  expect(usage, shown).toMatch(new RegExp(`^Usage: tongate ${path.join(' ')}( \\[options\\]|$)`));
  expect(r.stdout, `${shown}: '${path.join(' ')}' is a group of commands, not one that runs`).not.toMatch(
    /^Commands:/m,
  );
}

// ---- docker-compose.yml -------------------------------------------------------------------------------------------

/** The environment the compose files are read with in these tests. */
const COMPOSE_ENV: Record<string, string> = { TONGATE_NODE_DB_GID: '1234' };

/** Compose's ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error} with `env`, as docker-compose does. */
function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g,
    (_m, name: string, colon: string, op: string, arg: string) => {
      const v = env[name];
      const unset = v === undefined || (colon === ':' && v === '');
      if (!unset) return v as string;
      if (op === '-') return arg;
      if (op === '?') throw new Error(`${name}: ${arg}`);
      return '';
    },
  );
}

function deepInterpolate(v: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof v === 'string') return interpolate(v, env);
  if (Array.isArray(v)) return v.map((x) => deepInterpolate(x, env));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepInterpolate(x, env)]));
  }
  return v;
}

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: unknown;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  volumes?: string[];
  ports?: string[];
  deploy?: { replicas?: unknown };
  restart?: string;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

function readCompose(text: string): ComposeFile {
  return deepInterpolate(parseYaml(text, { merge: true }), { ...COMPOSE_ENV }) as ComposeFile;
}

const composeText = readFileSync(COMPOSE_FILE, 'utf8');

/** The commented node-db variant, uncommented: a docker-compose.override.yml. */
function nodeDbVariant(): string {
  const lines = composeText.split('\n');
  const begin = lines.findIndex((l) => l.startsWith('# --- begin node-db variant'));
  const end = lines.findIndex((l) => l.startsWith('# --- end node-db variant'));
  expect(begin, 'docker-compose.yml has a "# --- begin node-db variant" marker').toBeGreaterThan(0);
  expect(end, 'docker-compose.yml has a "# --- end node-db variant" marker').toBeGreaterThan(begin);
  return `${lines
    .slice(begin + 1, end)
    .map((l) => {
      expect(l === '#' || l.startsWith('# '), `node-db variant line is commented: ${l}`).toBe(true);
      return l.slice(2);
    })
    .join('\n')}\n`;
}

/** The services that run the tongate image (the Dockerfile's ENTRYPOINT is the CLI, so `command` is its arguments). */
function tongateServices(file: ComposeFile): [string, ComposeService][] {
  return Object.entries(file.services).filter(([, s]) => s.build !== undefined || s.image?.startsWith('tongate'));
}

function commandOf(name: string, s: ComposeService): string[] {
  expect(Array.isArray(s.command), `service ${name}: command is a list (exec form, no shell)`).toBe(true);
  const cmd = s.command as unknown[];
  for (const a of cmd) expect(typeof a, `service ${name}: command item ${String(a)} is a string`).toBe('string');
  return cmd as string[];
}

function runCompose(files: string[], env: Record<string, string>, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync('docker-compose', [...files.flatMap((f) => ['-f', f]), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: CLI_TIMEOUT_MS,
  });
}

describe('docker-compose.yml', () => {
  const file = readCompose(composeText);
  const services = file.services;

  it('has the whole production shape', () => {
    expect(Object.keys(services).sort()).toEqual(['migrate', 'postgres', 'redis', 'serve', 'walk', 'work']);
    expect(commandOf('migrate', services.migrate!)).toEqual(['db', 'migrate']);
    expect(commandOf('walk', services.walk!).slice(0, 2)).toEqual(['walk', 'tail']);
    expect(commandOf('work', services.work!)[0]).toBe('work');
    expect(commandOf('serve', services.serve!)[0]).toBe('serve');
    // the one-shot migrate runs first; the long-running services wait for it to succeed
    expect(services.migrate!.restart).toBe('no');
    for (const name of ['walk', 'work', 'serve']) {
      const deps = services[name]!.depends_on ?? {};
      expect(deps.migrate?.condition, `${name} waits for migrate`).toBe('service_completed_successfully');
      expect(deps.postgres?.condition, `${name} waits for postgres`).toBe('service_healthy');
      expect(deps.redis?.condition, `${name} waits for redis`).toBe('service_healthy');
    }
    expect(services.migrate!.depends_on?.postgres?.condition).toBe('service_healthy');
    // N workers
    expect(Number(services.work!.deploy?.replicas)).toBeGreaterThanOrEqual(2);
    expect(composeText).toContain('--scale work=');
  });

  it('checks health: pg_isready, redis ping, serve /healthz, walk and work on their metrics port', () => {
    expect(services.postgres!.healthcheck?.test).toEqual(expect.arrayContaining(['pg_isready']));
    expect(services.redis!.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    const serveCheck = services.serve!.healthcheck?.test ?? [];
    expect(serveCheck.join(' ')).toContain('/app/deploy/docker/healthcheck.mjs');
    expect(serveCheck.join(' ')).toMatch(/http:\/\/127\.0\.0\.1:8080\/healthz/);
    expect(services.migrate!.healthcheck?.disable).toBe(true);
    for (const name of ['walk', 'work']) {
      const cmd = commandOf(name, services[name]!);
      const port = cmd[cmd.indexOf('--metrics-port') + 1];
      expect(port, `${name} has --metrics-port`).toMatch(/^\d+$/);
      expect(services[name]!.environment?.TONGATE_HEALTH_URL).toBe(`http://127.0.0.1:${port}/healthz`);
    }
  });

  it('keeps data in named volumes and mounts the global config the commands read', () => {
    expect(Object.keys(file.volumes ?? {}).sort()).toEqual(['pgdata', 'redisdata']);
    expect(services.postgres!.volumes).toContain('pgdata:/var/lib/postgresql/data');
    expect(services.redis!.volumes).toContain('redisdata:/data');
    for (const name of ['walk', 'work', 'serve']) {
      const cmd = commandOf(name, services[name]!);
      const config = cmd[cmd.indexOf('--lite-config') + 1];
      expect(services[name]!.volumes, name).toContain(`./global.config.json:${config}:ro`);
    }
    expect(composeText).toContain('TONGATE_GLOBAL_CONFIG:-./global.config.json}:/etc/tongate/global.config.json:ro');
  });

  it("uses the README's credentials", () => {
    const pg = services.postgres!.environment!;
    const url = new URL(services.serve!.environment!.DATABASE_URL!);
    expect([url.username, url.password, url.pathname.slice(1)]).toEqual([
      pg.POSTGRES_USER,
      pg.POSTGRES_PASSWORD,
      pg.POSTGRES_DB,
    ]);
    for (const [name, s] of tongateServices(file)) {
      expect(s.environment?.DATABASE_URL, name).toBe(services.serve!.environment!.DATABASE_URL);
      expect(s.environment?.REDIS_URL, name).toBe('redis://redis:6379');
    }
    // the README's URLs are these, seen from the host (the ports published on 127.0.0.1)
    const readme = productionSection();
    expect(readme).toContain(
      `DATABASE_URL=postgres://${pg.POSTGRES_USER}:${pg.POSTGRES_PASSWORD}@127.0.0.1:5432/${pg.POSTGRES_DB}`,
    );
    expect(readme).toContain('REDIS_URL=redis://127.0.0.1:6379');
    expect(services.postgres!.ports).toContain('127.0.0.1:5432:5432');
    expect(services.redis!.ports).toContain('127.0.0.1:6379:6379');
  });

  it('runs real tongate commands in every service and in the node-db variant', () => {
    const all: [string, string[]][] = tongateServices(file).map(([name, s]) => [name, commandOf(name, s)]);
    expect(all.map(([n]) => n).sort()).toEqual(['migrate', 'serve', 'walk', 'work']);
    const variant = readCompose(nodeDbVariant());
    for (const [name, s] of Object.entries(variant.services)) {
      const cmd = commandOf(`${name} (node-db variant)`, s);
      expect(cmd).toContain('--node-db');
      expect(
        s.volumes?.some((v) => v.endsWith(':/var/ton-work/db:ro')),
        `${name} mounts the node's db read-only`,
      ).toBe(true);
      all.push([`${name} (node-db variant)`, cmd]);
    }
    for (const [name, cmd] of all) expectCliAccepts(cmd, `docker-compose.yml service ${name}`);
  }, 300_000);

  it.runIf(noCompose && process.env.CI)('has docker-compose installed (CI)', () => {
    throw new Error(`docker-compose checks cannot run: ${noCompose}; ${ciHint}`);
  });

  it.skipIf(noCompose)('is accepted by docker-compose config, with the worker count from TONGATE_WORKERS', () => {
    const plain = runCompose([COMPOSE_FILE], {}, 'config', '-q');
    expect(plain.status, plain.stderr).toBe(0);
    const scaled = runCompose([COMPOSE_FILE], { TONGATE_WORKERS: '5' }, 'config');
    expect(scaled.status, scaled.stderr).toBe(0);
    const out = parseYaml(scaled.stdout) as ComposeFile;
    expect(out.services.work?.deploy?.replicas).toBe(5);
    expect(Object.keys(out.services).sort()).toEqual(['migrate', 'postgres', 'redis', 'serve', 'walk', 'work']);
  });

  it.skipIf(noCompose)('accepts the node-db variant as docker-compose.override.yml', () => {
    const override = join(tempDir(), 'docker-compose.override.yml');
    writeFileSync(override, nodeDbVariant());
    const r = runCompose([COMPOSE_FILE, override], COMPOSE_ENV, 'config');
    expect(r.status, r.stderr).toBe(0);
    const merged = parseYaml(r.stdout) as ComposeFile;
    for (const name of ['walk', 'work']) {
      const s = merged.services[name]!;
      expect(s.command, name).toEqual(expect.arrayContaining(['--node-db', '/var/ton-work/db']));
      expect(s.volumes, name).toContain('/var/ton-work/db:/var/ton-work/db:ro');
    }
    // without the group id it refuses, with the message the comment promises
    const missing = runCompose([COMPOSE_FILE, override], { TONGATE_NODE_DB_GID: '' }, 'config', '-q');
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('TONGATE_NODE_DB_GID');
  });
});

// ---- deploy/systemd -----------------------------------------------------------------------------------------------

/** KEY=value lines of the environment file example. */
function envExample(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of readFileSync(ENV_EXAMPLE, 'utf8').split('\n')) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(t);
    expect(m, `tongate.env.example: not KEY=value: ${line}`).not.toBeNull();
    env[m![1]!] = m![2]!;
  }
  return env;
}

const unitFiles = readdirSync(SYSTEMD_DIR)
  .filter((f) => f.endsWith('.service'))
  .sort();

/** The unit's ExecStart= words, with %i and the environment file's variables substituted as systemd does. */
function execStart(unit: string, env: Record<string, string>): string[] {
  const lines = readFileSync(join(SYSTEMD_DIR, unit), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('ExecStart='));
  expect(lines, `${unit} has one ExecStart=`).toHaveLength(1);
  const raw = lines[0]!.slice('ExecStart='.length);
  expect(raw, `${unit}: ExecStart= without quotes or line continuations (split on spaces here)`).not.toMatch(/["'\\]/);
  return raw
    .replaceAll('%i', WORK_INSTANCE)
    .split(/\s+/)
    .filter(Boolean)
    .map((w) =>
      w.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a?: string, b?: string) => {
        const name = (a ?? b)!;
        expect(env[name], `${unit}: $${name} is set in tongate.env.example`).toBeDefined();
        return env[name]!;
      }),
    );
}

/** The unit file name systemd-analyze verify gets: a template's instance. */
const instanceName = (unit: string) => unit.replace('@.service', `@${WORK_INSTANCE}.service`);

describe('deploy/systemd', () => {
  it('has the migrate, walk, work@ and serve units and the environment file example', () => {
    expect(unitFiles).toEqual([
      'tongate-migrate.service',
      'tongate-serve.service',
      'tongate-walk.service',
      'tongate-work@.service',
    ]);
    const env = envExample();
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'TONGATE_NODE_DB']));
    // the same credentials as the README and docker-compose.yml
    expect(productionSection()).toContain(`DATABASE_URL=${env.DATABASE_URL}`);
    expect(productionSection()).toContain(`REDIS_URL=${env.REDIS_URL}`);
  });

  it('restarts on failure, never on bad usage (exit 2), and hardens every unit', () => {
    for (const unit of unitFiles) {
      const text = readFileSync(join(SYSTEMD_DIR, unit), 'utf8');
      const has = (line: string) => expect(text.split('\n'), `${unit}: ${line}`).toContain(line);
      has('Restart=on-failure');
      has('RestartPreventExitStatus=2');
      has('User=tongate');
      has('NoNewPrivileges=yes');
      has('ProtectSystem=strict');
      has('EnvironmentFile=/etc/tongate/tongate.env');
      if (unit !== 'tongate-migrate.service') {
        has('Requires=tongate-migrate.service');
        // 75 is retryable; oneshot units may not name it (systemd refuses RestartForceExitStatus= there), where
        // Restart=on-failure retries it all the same
        has('RestartForceExitStatus=75');
        expect(text, `${unit} starts after migrate`).toMatch(/^After=.*\btongate-migrate\.service\b/m);
      } else {
        has('Type=oneshot');
      }
      if (/walk|work/.test(unit)) {
        const words = execStart(unit, envExample());
        const nodeDb = words[words.indexOf('--node-db') + 1];
        expect(nodeDb, `${unit} reads the node's db`).toBe(envExample().TONGATE_NODE_DB);
        has(`ReadOnlyPaths=-${nodeDb}`);
      }
    }
  });

  it('runs real tongate commands in every ExecStart=', () => {
    const env = envExample();
    for (const unit of unitFiles) {
      const words = execStart(unit, env);
      expect(words.slice(0, 2), `${unit} runs ${UNIT_NODE} ${UNIT_CLI}`).toEqual([UNIT_NODE, UNIT_CLI]);
      expectCliAccepts(words.slice(2), unit);
    }
  }, 300_000);

  it.runIf(noSystemdAnalyze && process.env.CI)('has systemd-analyze installed (CI)', () => {
    throw new Error(`systemd-analyze checks cannot run: ${noSystemdAnalyze}; ${ciHint}`);
  });

  it.skipIf(noSystemdAnalyze)('is accepted by systemd-analyze verify', () => {
    // verify refuses a unit whose ExecStart= binary does not exist ("Command ... is not executable"), so the units
    // are checked in a temp copy whose /usr/bin/node is the node running this test; everything else is as shipped.
    // The folder of the files is on verify's unit path, so Requires=tongate-migrate.service resolves to our copy,
    // and the template is verified as an instance (tongate-work@9102.service, loaded from tongate-work@.service).
    const dir = tempDir();
    for (const unit of unitFiles) {
      const text = readFileSync(join(SYSTEMD_DIR, unit), 'utf8').replaceAll(`${UNIT_NODE} `, `${process.execPath} `);
      writeFileSync(join(dir, unit), text);
    }
    const r = spawnSync('systemd-analyze', ['verify', ...unitFiles.map((u) => join(dir, instanceName(u)))], {
      cwd: dir,
      encoding: 'utf8',
      timeout: CLI_TIMEOUT_MS,
    });
    // warnings (unknown keys, bad values) exit 0 too: any line about our files fails the test
    const ours = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => l.includes(dir) || /tongate-/.test(l));
    expect({ status: r.status, lines: ours }).toEqual({ status: 0, lines: [] });
  });
});

// ---- Dockerfile and .dockerignore ---------------------------------------------------------------------------------

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  base: string;
  name?: string;
  body: Instruction[];
}

/** The Dockerfile's stages and their instructions (line continuations joined, comments dropped). */
function dockerfile(): { args: Record<string, string>; stages: Stage[] } {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const logical: string[] = [];
  let cur = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue; // a comment, also inside a continued instruction
    if (line.endsWith('\\')) {
      cur += `${line.slice(0, -1)} `;
      continue;
    }
    cur += line;
    if (cur.trim() !== '') logical.push(cur.trim());
    cur = '';
  }
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const l of logical) {
    const m = /^(\w+)\s+([\s\S]*)$/.exec(l);
    expect(m, `Dockerfile: ${l}`).not.toBeNull();
    const op = m![1]!.toUpperCase();
    const rest = m![2]!;
    if (op === 'FROM') {
      const f = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      expect(f, `Dockerfile: FROM ${rest}`).not.toBeNull();
      const base = f![1]!.replace(/\$\{(\w+)\}/g, (_x, n: string) => args[n] ?? '');
      stages.push(f![2] === undefined ? { base, body: [] } : { base, name: f![2], body: [] });
    } else if (stages.length === 0) {
      expect(op, 'Dockerfile: only ARG before the first FROM').toBe('ARG');
      const a = /^(\w+)=(\S+)$/.exec(rest);
      if (a) args[a[1]!] = a[2]!;
    } else {
      stages[stages.length - 1]!.body.push({ op, args: rest });
    }
  }
  return { args, stages };
}

/** Exec form (JSON) or shell words. */
function words(args: string): string[] {
  return args.trim().startsWith('[') ? (JSON.parse(args) as string[]) : args.trim().split(/\s+/);
}

/** .dockerignore as the builder applies it: the last matching pattern wins, `!` keeps, a folder's match covers its files. */
function dockerignore(): (path: string) => boolean {
  const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const keep = l.startsWith('!');
      const glob = posix.normalize((keep ? l.slice(1) : l).replace(/^\/+/, '')).replace(/\/$/, '');
      let re = '';
      for (let i = 0; i < glob.length; i++) {
        const c = glob[i]!;
        if (c === '*' && glob[i + 1] === '*') {
          const slash = glob[i + 2] === '/';
          re += slash ? '(?:.*/)?' : '.*';
          i += slash ? 2 : 1;
        } else if (c === '*') re += '[^/]*';
        else if (c === '?') re += '[^/]';
        else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      }
      return { keep, re: new RegExp(`^${re}$`) };
    });
  return (path: string) => {
    const parts = path.split('/');
    const prefixes = parts.map((_p, i) => parts.slice(0, i + 1).join('/'));
    let kept = true;
    for (const p of patterns) if (prefixes.some((x) => p.re.test(x))) kept = p.keep;
    return kept;
  };
}

/** The final stage's COPYs from the build context: where each lands in the image (a folder's contents land in dest). */
function imageFiles(stage: Stage): { dest: string; src: string }[] {
  let workdir = '/';
  const out: { dest: string; src: string }[] = [];
  for (const ins of stage.body) {
    if (ins.op === 'WORKDIR') workdir = posix.resolve(workdir, ins.args.trim());
    if (ins.op !== 'COPY' || /--from=/.test(ins.args)) continue;
    const w = words(ins.args).filter((x) => !x.startsWith('--'));
    const rawDest = w[w.length - 1]!;
    const dest = posix.resolve(workdir, rawDest);
    const srcs = w.slice(0, -1);
    for (const src of srcs) {
      const isDir = existsSync(join(ROOT, src)) && statSync(join(ROOT, src)).isDirectory();
      const intoFolder = isDir || rawDest.endsWith('/') || srcs.length > 1;
      out.push({ src, dest: isDir || !intoFolder ? dest : posix.join(dest, posix.basename(src)) });
    }
  }
  return out;
}

/** The repository file an absolute path in the image comes from, or null. */
function sourceOf(files: { dest: string; src: string }[], path: string): string | null {
  for (const f of files) {
    if (path === f.dest) return f.src;
    if (path.startsWith(`${f.dest}/`)) return posix.join(f.src, path.slice(f.dest.length + 1));
  }
  return null;
}

/** Relative and bare module specifiers a source file loads at run time (`import type` is erased, so left out). */
function importsOf(text: string): { relative: string[]; bare: string[] } {
  const rel = new Set<string>();
  const bare = new Set<string>();
  const add = (spec: string, typeOnly: boolean) => {
    if (spec.startsWith('.')) {
      if (!typeOnly) rel.add(spec);
    } else if (!typeOnly) bare.add(spec);
  };
  for (const m of text.matchAll(/(?:^|[\n;])\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?(['"])([^'"]+)\3/g)) {
    add(m[4]!, m[2] !== undefined);
  }
  // dynamic imports and worker entries (new URL('./worker.ts', import.meta.url)); bare ones in type positions
  // (`import('@ton/core').Slice`) are types, so only relative ones are followed
  for (const m of text.matchAll(/(?:import\(|new URL\()\s*(['"])(\.{1,2}\/[^'"]+\.(?:ts|js|mjs))\1/g))
    add(m[2]!, false);
  return { relative: [...rel], bare: [...bare] };
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

describe('Dockerfile', () => {
  const { args, stages } = dockerfile();
  const final = stages[stages.length - 1]!;
  const kept = dockerignore();
  const files = imageFiles(final);
  const instr = (op: string) => final.body.filter((i) => i.op === op);

  it('builds on a Debian whose librocksdb-dev is >= 8.6 (trixie) and installs production dependencies only', () => {
    expect(stages.length, 'multi-stage').toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(s.base, 'node 20 on trixie').toMatch(/^node:20[.\d]*-trixie/);
    expect(args.NODE_IMAGE).toMatch(/trixie/);
    const run = stages.flatMap((s) => s.body.filter((i) => i.op === 'RUN').map((i) => i.args)).join('\n');
    expect(run).toContain('librocksdb-dev');
    expect(run).toMatch(/npm ci --omit=dev/);
    // no compiler and no headers in the final image
    const finalRun = instr('RUN')
      .map((i) => i.args)
      .join('\n');
    expect(finalRun).not.toMatch(/build-essential|librocksdb-dev|npm (ci|install)/);
    // tsx runs the sources, so it must be a production dependency
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies.tsx).toBeDefined();
  });

  it('runs as a user that is not root', () => {
    const users = instr('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]!.args.split(':')[0]).not.toMatch(/^(root|0)$/);
  });

  it('copies only files that exist and that .dockerignore keeps in the build context', () => {
    const copies = stages.flatMap((s) => s.body.filter((i) => i.op === 'COPY' && !/--from=/.test(i.args)));
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) {
      const w = words(c.args).filter((x) => !x.startsWith('--'));
      for (const src of w.slice(0, -1)) {
        expect(existsSync(join(ROOT, src)), `COPY ${src}: exists`).toBe(true);
        expect(kept(src), `COPY ${src}: kept by .dockerignore`).toBe(true);
        if (statSync(join(ROOT, src)).isDirectory()) {
          const sample = readdirSync(join(ROOT, src)).filter((f) => kept(posix.join(src, f)));
          expect(sample.length, `COPY ${src}: .dockerignore keeps some of it`).toBeGreaterThan(0);
        }
      }
    }
    // what must not reach the image
    for (const p of [
      'node_modules/tsx/package.json',
      'native/tonrocks/build/Release/tonrocks.node',
      'data/x',
      '.git',
    ]) {
      expect(kept(p), `.dockerignore leaves out ${p}`).toBe(false);
    }
    expect(kept('src/cli/command.ts')).toBe(true);
    expect(kept('src/cli/progress.test.ts')).toBe(false);
  });

  it('has the tongate CLI as ENTRYPOINT, a CMD that is a real command, and a HEALTHCHECK script in the image', () => {
    const entry = JSON.parse(instr('ENTRYPOINT').at(-1)!.args) as string[];
    expect(entry[0]).toBe('node');
    expect(sourceOf(files, entry[1]!), `ENTRYPOINT ${entry[1]} comes from bin/tongate.js`).toBe('bin/tongate.js');
    const cmd = JSON.parse(instr('CMD').at(-1)!.args) as string[];
    expectCliAccepts(cmd, 'Dockerfile CMD');
    const health = instr('HEALTHCHECK').at(-1)!.args;
    const script = /CMD\s+(\[.*\])/.exec(health);
    expect(script, 'HEALTHCHECK CMD in exec form').not.toBeNull();
    const hc = JSON.parse(script![1]!) as string[];
    expect(sourceOf(files, hc[1]!)).toBe('deploy/docker/healthcheck.mjs');
  }, 120_000);

  it('has in the image every module the CLI loads, and their packages are production dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const builtins = new Set(builtinModules);
    const seen = new Set<string>();
    const queue = ['bin/tongate.js'];
    const problems: string[] = [];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const inImage = kept(file) && files.some((f) => file === f.src || file.startsWith(`${f.src}/`));
      if (!existsSync(join(ROOT, file))) problems.push(`${file}: imported but missing`);
      else if (!inImage) problems.push(`${file}: imported at run time but not in the image`);
      if (!existsSync(join(ROOT, file))) continue;
      const { relative: rel, bare } = importsOf(readFileSync(join(ROOT, file), 'utf8'));
      for (const spec of rel)
        queue.push(
          relative(ROOT, resolve(ROOT, dirname(file), spec))
            .split('\\')
            .join('/'),
        );
      for (const spec of bare) {
        const name = packageName(spec);
        if (spec.startsWith('node:') || builtins.has(name)) continue;
        if (pkg.dependencies[name] === undefined)
          problems.push(`${file}: imports '${spec}', not a production dependency`);
      }
    }
    expect(seen.size, 'the CLI and what it imports').toBeGreaterThan(100);
    expect(seen.has('workers/index-mc-block.ts')).toBe(true);
    expect(problems).toEqual([]);
  });
});

// ---- deploy/docker/healthcheck.mjs --------------------------------------------------------------------------------

function runHealthcheck(args: string[], env: Record<string, string>): Promise<number | null> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [HEALTHCHECK, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: 'ignore',
    });
    p.once('error', fail);
    p.once('exit', (code) => done(code));
  });
}

describe('deploy/docker/healthcheck.mjs', () => {
  it('exits 0 on 2xx, 1 on 503 or no answer, 0 for TONGATE_HEALTH_URL=none', async () => {
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/healthz' ? 200 : 503, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await runHealthcheck([`http://127.0.0.1:${port}/healthz`], {})).toBe(0);
      expect(await runHealthcheck([], { TONGATE_HEALTH_URL: `http://127.0.0.1:${port}/down` })).toBe(1);
      expect(await runHealthcheck([], { PORT: String(port) })).toBe(0); // the default: the API's own /healthz
      expect(await runHealthcheck([], { TONGATE_HEALTH_URL: 'none' })).toBe(0);
    } finally {
      await new Promise((r) => server.close(r));
    }
    // nothing listening
    expect(await runHealthcheck([`http://127.0.0.1:${port}/healthz`], {})).toBe(1);
  });
});

// ---- README ---------------------------------------------------------------------------------------------------------

/** README.md's "Production shape" section. */
function productionSection(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Production shape');
  expect(start, 'README.md has a "## Production shape" section').toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('README.md production section', () => {
  it('describes this deployment', () => {
    const text = productionSection();
    for (const s of ['docker-compose up', '--scale work=', 'TONGATE_GLOBAL_CONFIG', 'deploy/systemd/', 'Dockerfile']) {
      expect(text, `mentions ${s}`).toContain(s);
    }
    for (const unit of unitFiles) expect(text, `names ${unit}`).toContain(unit.replace('.service', ''));
  });
});
