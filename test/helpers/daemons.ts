/**
 * Debian's HAProxy and PgBouncer, run by tests as real processes in front of the service and of
 * PostgreSQL (haproxy.ts, pgbouncer.ts). Outside CI a test that needs them is skipped with a
 * message saying what is missing; in CI (CI=true) their absence fails the run, so a green CI
 * always means the service was tested behind both.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Where Debian installs daemons (sbin), which a user's PATH often lacks. */
const SBIN = ['/usr/sbin', '/usr/local/sbin', '/sbin'];

export function findExecutable(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean), ...SBIN];
  return dirs.map((dir) => path.join(dir, name)).find((file) => fs.existsSync(file));
}

/**
 * `false` when the test can run: PostgreSQL (DATABASE_URL) and each daemon named. Without
 * PostgreSQL it is skipped everywhere (CI's pass on the embedded database included); without a
 * daemon, skipped outside CI and an error in CI.
 */
export function skipWithoutDaemons(...names: string[]): string | false {
  if (!process.env.DATABASE_URL) return 'skipped: runs on PostgreSQL only (set DATABASE_URL)';
  const missing = names.filter((name) => !findExecutable(name));
  if (missing.length === 0) return false;
  const install = `apt-get install ${missing.join(' ')}`;
  if (process.env.CI === 'true') throw new Error(`CI needs ${missing.join(' and ')} for the tests behind a balancer and a pooler: ${install}`);
  return `skipped: ${missing.join(' and ')} not installed (${install})`;
}

/** A port free on the loopback now (the daemon binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export type Daemon = { child: ChildProcess; output(): string; stop(): Promise<void> };

/**
 * Starts `file` in the foreground and resolves once `port` accepts connections; a daemon that
 * exits first fails the start with what it wrote. `unprivileged`: when this process is root, the
 * daemon runs as `nobody` (PgBouncer refuses to run as root).
 */
export async function startDaemon(file: string, args: string[], port: number, options: { unprivileged?: boolean } = {}): Promise<Daemon> {
  const user = options.unprivileged && process.getuid?.() === 0 ? nobody() : {};
  const child = spawn(file, args, { ...user, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const daemon: Daemon = {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  for (const deadline = Date.now() + 10_000; !(await accepts(port)); ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await daemon.stop();
      throw new Error(`${path.basename(file)} did not start listening on ${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return daemon;
}

function nobody(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'nobody'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1_000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A new scratch folder holding the files `files` names (given the folder), which a daemon may read (as `nobody` too). */
export function daemonFiles(prefix: string, files: (dir: string) => Record<string, string>): { paths: Record<string, string>; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  const paths = Object.fromEntries(
    Object.entries(files(dir)).map(([name, text]) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text, { mode: 0o644 });
      return [name, file];
    }),
  );
  return { paths, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
