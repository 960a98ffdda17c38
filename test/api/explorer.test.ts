// Issue 21: the interactive explorers as a user meets them, in a real browser. Debian's Chromium, driven headless
// through the DevTools protocol by playwright-core, opens the landing page, /api/v3/ and /api/v2/ on a live stack
// (a devnet indexed into PGlite), runs an operation with "try it out" and reads the 200 and its JSON on the page;
// the API key typed into Authorize must reach the server. Every request the pages make must stay on our server (the
// explorers work offline). Screenshots go to artifacts/explorer/ (git-ignored; CI keeps them as test artifacts).
// Without Chromium the test fails under CI=true and is skipped (with a message) elsewhere.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WalletsFileEntry } from '../../src/devnet/node/index.ts';
import { type ApiFixture, startApiFixture } from '../helpers/api-fixture.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCREENSHOTS = join(ROOT, 'artifacts', 'explorer');
const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => p !== undefined && p !== '',
);
const CHROMIUM = CANDIDATES.find((p) => existsSync(p));
const missing = CHROMIUM === undefined ? `no Chromium at ${CANDIDATES.join(' or ')}` : null;
if (missing && !process.env.CI) console.warn(`explorer browser test skipped: ${missing}; apt-get install chromium`);

let f: ApiFixture;
let browser: Browser;
/** Every URL a page asked for, across the test. */
const requested: string[] = [];
/** The X-API-Key header of every request that reached an API route from a page. */
const sentKeys: Array<string | undefined> = [];

/** Opens a page; an explorer page (a path ending in '/api/v2/' or '/api/v3/') is returned once Swagger UI has rendered
 * its operations, which happens after the network is idle (the document is parsed and laid out on the page's own
 * thread, slower on a loaded machine). */
async function open(path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (r) => {
    requested.push(r.url());
    if (/\/api\/v[23]\/(?!openapi\.json)[A-Za-z]/.test(new URL(r.url()).pathname)) {
      sentKeys.push(r.headers()['x-api-key']);
    }
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const r = await page.goto(f.base + path, { waitUntil: 'networkidle' });
  expect(r?.status(), path).toBe(200);
  if (/\/api\/v[23]\/$/.test(path)) await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
  expect(errors, `script errors on ${path}`).toEqual([]);
  return page;
}

/** Expands one operation, runs it with "try it out" and returns the status and body shown on the page. */
async function tryItOut(
  page: Page,
  method: 'get' | 'post',
  path: string,
  fill?: Record<string, string>,
): Promise<{ status: string; body: string }> {
  const op = page.locator(`.opblock-${method}`).filter({ has: page.locator(`[data-path="${path}"]`) });
  expect(await op.count(), `${method} ${path} on the page`).toBe(1);
  await op.locator('.opblock-summary').first().click();
  await op.locator('button.try-out__btn').click();
  for (const [name, value] of Object.entries(fill ?? {})) {
    await op.locator(`tr[data-param-name="${name}"] input`).fill(value);
  }
  await op.locator('button.execute').click();
  const status = op.locator('.live-responses-table tr.response .response-col_status').first();
  await status.waitFor({ timeout: 30_000 });
  const body = op.locator('.live-responses-table tr.response .response-col_description pre').first();
  await op.locator('.live-responses-table').scrollIntoViewIfNeeded();
  return { status: (await status.innerText()).trim(), body: await body.innerText() };
}

async function authorize(page: Page, key: string): Promise<void> {
  await page.locator('button.authorize').first().click();
  const scheme = page.locator('.modal-ux .auth-container').filter({ hasText: 'APIKeyHeader' });
  await scheme.waitFor();
  await scheme.locator('input').fill(key);
  await scheme.locator('button.authorize').click();
  await page.locator('.modal-ux button.btn-done').first().click();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

describe.skipIf(missing)('API explorers in Chromium', () => {
  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    f = await startApiFixture({ seed: 'explorer', db: 'pglite', activitySteps: 2, userWalletsPerVersion: 1 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      // Root in a container: Chromium's sandbox needs user namespaces it may not have.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await f?.close();
    if (requested.length > 0) console.log(`explorer screenshots: ${SCREENSHOTS}`);
  });

  it('serves a landing page at / linking both explorers, /healthz and /metrics', async () => {
    const page = await open('/');
    const links = await page.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const href of [
      '/api/v3/',
      '/api/v2/',
      '/api/v3/openapi.json',
      '/api/v2/openapi.json',
      '/healthz',
      '/metrics',
    ]) {
      expect(links).toContain(href);
    }
    await shot(page, 'landing');
    await page.locator('a[href="/api/v3/"]').first().click();
    await page.waitForURL(`${f.base}/api/v3/`);
    await page.locator('.opblock').first().waitFor();
    await page.close();
  });

  it('runs v3 /transactions with "try it out" and shows the 200 with its JSON', async () => {
    const page = await open('/api/v3/');
    expect(await page.locator('.opblock').count()).toBeGreaterThan(30);
    const { status, body } = await tryItOut(page, 'get', '/api/v3/transactions', { limit: '5' });
    expect(status).toBe('200');
    const json = JSON.parse(body) as { transactions: Array<{ hash: string }>; address_book: object };
    expect(json.transactions.length).toBeGreaterThan(0);
    expect(json.transactions.length).toBeLessThanOrEqual(5);
    expect(json.address_book).toBeTypeOf('object');
    // The same rows as the API answers without a browser.
    const direct = await f.get('/api/v3/transactions?limit=5');
    expect(json.transactions.map((t) => t.hash)).toEqual(direct.body.transactions.map((t: { hash: string }) => t.hash));
    await shot(page, 'v3-transactions');
    await page.close();
  });

  it('sends the API key typed into Authorize', async () => {
    const keys = f.server.keys;
    if (!keys) throw new Error('the fixture has a database, so it has a key store');
    const { key } = await keys.create('explorer test', null);
    const page = await open('/api/v3/');
    await authorize(page, key);
    const before = sentKeys.length;
    const { status } = await tryItOut(page, 'get', '/api/v3/masterchainInfo');
    expect(status).toBe('200');
    expect(sentKeys.slice(before)).toEqual([key]);
    await shot(page, 'v3-api-key');
    await page.close();
    // A wrong key is the server's 401, shown on the page: the key really went to the API. (A new page is a new
    // browser context, so nothing of the first key persists.)
    const wrong = await open('/api/v3/');
    await authorize(wrong, `${key}x`);
    const refused = await tryItOut(wrong, 'get', '/api/v3/masterchainInfo');
    expect(refused.status).toBe('401');
    expect(sentKeys.at(-1)).toBe(`${key}x`);
    await shot(wrong, 'v3-api-key-refused');
    await wrong.close();
  });

  it('runs v2 getAddressBalance with "try it out" and shows the 200 with its JSON', async () => {
    const page = await open('/api/v2/');
    const doc = (await f.get('/api/v2/openapi.json')).body as { paths: Record<string, unknown> };
    const path = Object.keys(doc.paths).find((p) => p.endsWith('/getAddressBalance'));
    if (!path) throw new Error('getAddressBalance is not in /api/v2/openapi.json');
    // A user wallet: nothing signs with it, so its balance holds still between the two reads.
    const wallets = JSON.parse(await readFile(f.info.walletsFile, 'utf8')) as WalletsFileEntry[];
    const address = wallets.find((w) => w.role === 'user')?.address;
    if (!address) throw new Error('the devnet has no user wallet');
    const { status, body } = await tryItOut(page, 'get', path, { address });
    expect(status).toBe('200');
    const json = JSON.parse(body) as { ok: boolean; result: string };
    expect(json.ok).toBe(true);
    const direct = await f.get(`/api/v2/getAddressBalance?address=${encodeURIComponent(address)}`);
    expect(BigInt(json.result)).toBeGreaterThan(0n);
    expect(json.result).toBe(direct.body.result);
    await shot(page, 'v2-getAddressBalance');
    await page.close();
  });

  it('loads nothing from anywhere but this server', () => {
    expect(requested.length).toBeGreaterThan(10);
    expect(requested.filter((u) => !u.startsWith(`${f.base}/`))).toEqual([]);
  });
});

describe.runIf(missing && process.env.CI)('API explorers in Chromium (CI)', () => {
  it('has Chromium installed', () => {
    throw new Error(`${missing}: .ci/run installs Debian's chromium`);
  });
});
