// Whether a build output is older than its sources (npm start builds only then, so that a
// read-only install with its builds in place starts without writing anything).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time of a file, or of any file under a directory (0 when missing). */
export function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path)) t = Math.max(t, newest(join(path, entry)));
  return t;
}

/** True when `output` exists and no source is newer. */
export function isFresh(output, sources) {
  return existsSync(output) && statSync(output).mtimeMs >= Math.max(...sources.map(newest));
}
