/**
 * The service as its own process, driven over real HTTP, as operators run it.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createTenant } from './credentials.ts';
import { type OwnerSql, openTestDatabase } from './test-database.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/gatehouse.js');

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process has written to stdout (its logs) so far. */
  stdout(): string;
  /** Everything it has written to stderr (messages for a person at the terminal). */
  stderr(): string;
  /**
   * Resolves with stderr once it matches: stdout and stderr are separate pipes, so a line the
   * process wrote to stderr before "listening" can still be on its way when stdout says so.
   */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends a signal and resolves with the exit code once both pipes are drained. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * The environment of a child: only what it needs, so the developer's variables do not leak in.
 * No child downloads the official lists from the internet unless its test asks for it.
 */
export const childEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LISTS_AUTO_UPDATE: 'false', ...env });

/** `timeoutMs`: a fresh embedded database migrates on its first start, which on a busy 2-core machine has taken over a minute. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 150_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: childEnv({ PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  // 'close', not 'exit': by then stdout and stderr have delivered everything the process wrote.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

  // A server that never says it is listening is killed, not left running behind the caller.
  const address = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within ${timeoutMs} ms:\n${out}\n${err}`)), timeoutMs);
    const look = () => {
      const line = out.split('\n').find((l) => l.includes('gatehouse is listening'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line).address);
      }
    };
    child.stdout.on('data', look);
    void exited.then((code) => reject(new Error(`the server exited with ${code}:\n${out}\n${err}`)));
  }).catch((error) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    child,
    baseUrl: `${address}/api`,
    stdout: () => out,
    stderr: () => err,
    waitForStderr: (pattern, waitMs = 10_000) =>
      new Promise<string>((resolve, reject) => {
        const look = () => {
          if (!pattern.test(err)) return false;
          clearTimeout(timer);
          child.stderr?.off('data', look);
          resolve(err);
          return true;
        };
        const timer = setTimeout(() => {
          child.stderr?.off('data', look);
          reject(new Error(`stderr did not match ${pattern} within ${waitMs} ms:\n${err}`));
        }, waitMs);
        if (!look()) child.stderr?.on('data', look);
      }),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The same, without blocking the event loop: several can run side by side. */
export function runCliAsync(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function runCli(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: childEnv(env), encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Where a child process keeps its data, on the backend under test: its own database on the
 * PostgreSQL server when DATABASE_URL is set (with `owner`, the tests' SQL past row-level security,
 * see test-database.ts), otherwise a new embedded data folder.
 */
export async function processDatabase(): Promise<{ env: Record<string, string>; dataDir?: string; owner?: OwnerSql; cleanup(): Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const database = await openTestDatabase();
    return { env: { DATABASE_URL: database.url as string }, owner: database.owner, cleanup: () => database.close() };
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-process-'));
  return { env: { DATA_DIR: dataDir }, dataDir, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * A started server and an admin key for it: on the embedded database, the sandbox's, printed on
 * the first start (which also creates the database); on PostgreSQL, one made as operators do, in
 * the process's own database, before the server starts.
 */
export async function startWithAdminKey(
  storage: { env: Record<string, string>; dataDir?: string; owner?: OwnerSql },
  env: Record<string, string>,
): Promise<{ server: ServerProcess; key: string }> {
  if (!storage.owner) {
    const server = await startServerProcess(env);
    const shownOnce = /admin API key \(shown this once\): (gk_test_\S+)/;
    return { server, key: shownOnce.exec(await server.waitForStderr(shownOnce))?.[1] as string };
  }
  const { key } = await createTenant(storage.owner, { tier: 'defense', admin: true });
  return { server: await startServerProcess(env), key };
}

/**
 * For a file of CLI tests: a database of its own (see processDatabase) and a scratch folder, made
 * before its tests and removed after; `json` runs a command that must succeed and parses its stdout.
 */
export function cliTestDatabase(scratchPrefix: string) {
  let storage: Awaited<ReturnType<typeof processDatabase>>;
  const session = { env: {} as Record<string, string>, scratch: '' };
  before(async () => {
    storage = await processDatabase();
    session.env = { ...storage.env, LOG_LEVEL: 'silent' };
    session.scratch = fs.mkdtempSync(path.join(os.tmpdir(), scratchPrefix));
  });
  after(async () => {
    fs.rmSync(session.scratch, { recursive: true, force: true });
    await storage.cleanup();
  });
  const json = (args: string[]) => {
    const result = runCli(args, session.env);
    assert.equal(result.code, 0, result.stderr);
    return { out: JSON.parse(result.stdout), err: result.stderr };
  };
  return Object.assign(session, { json });
}
