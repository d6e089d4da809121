// One process at a time in a PGlite data folder. PGlite is PostgreSQL compiled into this
// process with no postmaster to arbitrate: two processes writing the same files corrupt
// the store. A lock file holds the owner's pid; a second process is refused with a message
// that says what to do. The lock of a process that died (kill -9, power cut) is taken over,
// since its pid is gone. (proper-lockfile was considered: its staleness is time-based, so a
// server restarted seconds after a crash would be refused; the pid says exactly who holds it.)
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataFolderInUseError extends Error {}

export interface DataFolderLock {
  release(): void;
}

const LOCK_FILE = 'stockroom.lock';

function pidIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDataFolder(folder: string): DataFolderLock {
  // A fresh data folder does not exist yet: PGlite would create it, but the lock comes first.
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(holder) && holder > 0 && pidIsAlive(holder)) {
        const who = holder === process.pid ? 'this process' : `another process (pid ${holder})`;
        throw new DataFolderInUseError(
          `The data folder ${folder} is already in use by ${who}. ` +
            'Only one Stockroom server (or npm run script) can use an embedded database at a time: ' +
            'stop the other one first, or set DATA_DIR to another folder.',
        );
      }
      // Left behind by a process that is gone: take it over.
      rmSync(file, { force: true });
      continue;
    }
    writeSync(fd, String(process.pid));
    closeSync(fd);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
        } catch {
          // Already gone.
        }
      },
    };
  }
  throw new DataFolderInUseError(`Could not lock the data folder ${folder}; try again`);
}
