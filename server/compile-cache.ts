/**
 * Node's compile cache for the built server and CLI: V8's compiled code of a bundle kept between
 * runs, so that a start does not parse and compile megabytes of JavaScript again. The launchers
 * build/server.js and build/cli.js (scripts/build-server.mjs) turn it on through launch.ts before
 * they import their bundle.
 *
 * The cache is code the process runs: a directory another user can write would let them run theirs
 * in zonedeck. So it is a directory of this user's own, `zonedeck-compile-cache-<uid>` in the temp
 * directory, made 0700, and used only while it is a real directory (no symlink) owned by this user
 * that no one else may write; otherwise there is no cache (a start is slower, nothing else). An
 * operator's NODE_COMPILE_CACHE is the operator's choice (Node turns it on before any of this).
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
import fs from 'node:fs';
import nodeModule from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** `dir`, made if missing (0700), when it is a directory that only user `uid` may write; else null. */
export function privateDir(dir: string, uid: number): string | null {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return null;
  }
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() && st.uid === uid && (st.mode & 0o022) === 0 ? dir : null;
  } catch {
    return null;
  }
}

/** Turns the cache on for this process and, through the environment, for the threads it starts. */
export function turnOnCompileCache(): void {
  // Looked up, not imported by name: a Node without it (older than the engines floor) still starts
  // far enough to say what it lacks, instead of failing to link this file.
  const enableCompileCache = (nodeModule as Partial<typeof nodeModule>).enableCompileCache;
  if (process.env.NODE_COMPILE_CACHE || process.env.NODE_DISABLE_COMPILE_CACHE || typeof process.getuid !== 'function' || typeof enableCompileCache !== 'function') return;
  const uid = process.getuid();
  const dir = privateDir(path.join(os.tmpdir(), `zonedeck-compile-cache-${uid}`), uid);
  if (!dir) return;
  const result = enableCompileCache(dir);
  if (result.directory) process.env.NODE_COMPILE_CACHE = result.directory;
}
