// The ports a command will listen on, checked before it does anything else (issue 24): a busy port is bad usage,
// said at once in one line naming the port and the option that moves it (exit 2), instead of after a genesis, a
// database migration and a start-up that then runs on without the part that could not listen.
import { createServer } from 'node:net';
import { UsageError } from '../common/options.ts';

export interface PortToBind {
  /** 0 = any free port: nothing to check. */
  port: number;
  host: string;
  /** What would listen there, e.g. 'the HTTP API'. */
  what: string;
  /** How to pick another, e.g. '--port or PORT'. */
  change: string;
  /** How to pick another address, e.g. '--host or HOST'. */
  hostChange?: string;
}

/** The error code binding `host:port` gives right now (EADDRINUSE, EACCES, ...), or null when it can be bound. */
export function probePort(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/**
 * Throws a UsageError for the first port of `ports` that cannot be bound (in use, privileged, an address this
 * machine does not have) or that two of them share. Ports of 0 are skipped.
 */
export async function checkPorts(ports: readonly PortToBind[]): Promise<void> {
  const seen = new Map<number, PortToBind>();
  for (const p of ports) {
    if (p.port === 0) continue;
    if (!Number.isInteger(p.port) || p.port < 0 || p.port > 65535) {
      throw new UsageError(`${p.what} would listen on port ${p.port}, outside 1..65535; change ${p.change}`);
    }
    const other = seen.get(p.port);
    if (other) {
      throw new UsageError(
        `${other.what} and ${p.what} would both listen on port ${p.port}; change ${other.change} or ${p.change}`,
      );
    }
    seen.set(p.port, p);
  }
  for (const p of seen.values()) {
    const code = await probePort(p.port, p.host);
    if (code === null) continue;
    const where = `port ${p.port} on ${p.host} (${p.what})`;
    if (code === 'EADDRINUSE') throw new UsageError(`${where} is already in use; pick another with ${p.change}`);
    if (code === 'EACCES') {
      throw new UsageError(`${where} needs privileges this process does not have; pick another with ${p.change}`);
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new UsageError(
        `cannot listen on ${p.host} for ${p.what}: not an address of this machine${p.hostChange ? `; pick another with ${p.hostChange}` : ''}`,
      );
    }
    throw new UsageError(`cannot listen on ${where}: ${code}`);
  }
}
