/**
 * The first start's `admin` password (first run): printed once in the log, and kept in
 * a 0600 file `DATA_DIR/admin-password` until `admin` changes it, so that a first start whose log
 * was lost (a port already taken, a closed terminal) does not lock the newcomer out. The file
 * goes when admin's password changes (their own change, or an administrator's reset).
 */
import fs from 'node:fs';
import path from 'node:path';

export const FIRST_PASSWORD_FILE = 'admin-password';

export function firstPasswordFile(dataDir: string | undefined) {
  const file = dataDir ? path.join(dataDir, FIRST_PASSWORD_FILE) : undefined;
  return {
    file,
    /** Keeps the first password (mode 0600, never over an existing file). */
    keep(password: string): void {
      if (!file) return;
      fs.writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
    },
    exists: (): boolean => Boolean(file && fs.existsSync(file)),
    /** Admin's password changed: the file's is no longer it. */
    forget(username: string): void {
      if (!file || username !== 'admin') return;
      fs.rmSync(file, { force: true });
    },
  };
}

export type FirstPassword = ReturnType<typeof firstPasswordFile>;
