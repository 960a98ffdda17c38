#!/usr/bin/env node
// The Docker image's HEALTHCHECK: GET a tongate /healthz and exit 0 on a 2xx answer, 1 otherwise (Docker reads
// only 0 and 1). The URL is the first argument, else TONGATE_HEALTH_URL, else the API's own
// http://127.0.0.1:$PORT/healthz (the image's default command is `serve` on PORT=8080). walk and work have a
// /healthz only with --metrics-port: point TONGATE_HEALTH_URL at it (docker-compose.yml does), or set it to
// `none` for a process with nothing to ask (e.g. a one-shot `db migrate`), which then counts as healthy.
// Plain JavaScript on purpose: it runs every few seconds, so it skips tsx and imports nothing but Node.

const TIMEOUT_MS = 5000;

const url =
  process.argv[2] ?? process.env.TONGATE_HEALTH_URL ?? `http://127.0.0.1:${process.env.PORT || '8080'}/healthz`;

if (url === 'none' || url === '') {
  console.log('healthcheck: nothing to check (TONGATE_HEALTH_URL=none)');
  process.exit(0);
}

try {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  const body = (await res.text()).trim().slice(0, 500);
  console.log(`healthcheck: ${url} answered ${res.status}${body ? `: ${body}` : ''}`);
  process.exit(res.ok ? 0 : 1);
} catch (e) {
  console.log(`healthcheck: ${url} failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
