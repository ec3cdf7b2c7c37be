/**
 * An exclusive lock on the embedded database's folder. PGlite is a single-process database: a
 * second process writing the same files would corrupt them, so the second one must stop at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, owner: LockOwner) {
    super(
      `The embedded database in ${dataDir} is in use by process ${owner.pid} on ${owner.host} ` +
        `(since ${owner.since}). Stop that process, or set DATA_DIR to another folder, ` +
        'or set DATABASE_URL to use PostgreSQL, which serves many processes.',
    );
    this.name = 'DataDirInUseError';
  }
}

type LockOwner = { pid: number; host: string; since: string };

export type DataDirLock = { release(): void };

export function lockDataDir(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'gatehouse.lock');
  const me: LockOwner = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // 'wx' fails if the file exists: creating it is the atomic test-and-set.
      fs.writeFileSync(lockPath, JSON.stringify(me), { flag: 'wx' });
      return lockHeldBy(lockPath, me);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      if (owner && isAlive(owner)) throw new DataDirInUseError(dataDir, owner);
      // The owner died without releasing the lock (a crash or kill -9): take it over.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}: another process keeps recreating ${lockPath}`);
}

function lockHeldBy(lockPath: string, me: LockOwner): DataDirLock {
  const releaseOnExit = () => release();
  function release() {
    process.off('exit', releaseOnExit);
    const owner = readOwner(lockPath);
    if (owner?.pid === me.pid && owner.since === me.since) fs.rmSync(lockPath, { force: true });
  }
  process.on('exit', releaseOnExit);
  return { release };
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined; // unreadable or half-written: treat as stale
  }
}

function isAlive(owner: LockOwner): boolean {
  // A lock written by another host (a shared folder) cannot be probed: assume it is alive.
  if (owner.host !== os.hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
