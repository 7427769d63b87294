/**
 * A small disk of a spec's own: a tmpfs mounted on a temporary directory, to put a server's
 * DATA_DIR on and fill until SQLite finds no space, then free again. Mounting needs root (or
 * CAP_SYS_ADMIN); where it fails, `mountSmallDisk` says why and the spec skips.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  /** An empty directory on the small disk, for DATA_DIR. */
  dataDir: string;
  /** Writes a file of zeros until the disk has no byte left. */
  fill(): void;
  /** Removes that file: the space is free again. */
  free(): void;
  unmount(): void;
}

export function mountSmallDisk(megabytes: number): SmallDisk | string {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-small-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', mountPoint], { encoding: 'utf8' });
  if (r.status !== 0) {
    fs.rmdirSync(mountPoint);
    return `cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): ${(r.stderr || r.error?.message || '').trim()}`;
  }
  const dataDir = path.join(mountPoint, 'data');
  fs.mkdirSync(dataDir);
  const filler = path.join(mountPoint, 'filler');
  return {
    dataDir,
    fill() {
      const fd = fs.openSync(filler, 'a');
      const zeros = Buffer.alloc(64 * 1024);
      try {
        // A write that finds less room writes what fits; the next one finds none.
        for (;;) fs.writeSync(fd, zeros);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        fs.closeSync(fd);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      spawnSync('umount', [mountPoint]);
      fs.rmSync(mountPoint, { recursive: true, force: true });
    },
  };
}
