/**
 * `restore <file>`: a backup becomes DATA_DIR's database, while its server is stopped. The file is
 * copied into DATA_DIR and checked there (SQLite's integrity check, zonedeck's migrations, a schema
 * this code knows, secrets that open under the key the server will use) before it takes the
 * database's name; a database already there is kept beside it, never deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { DatabaseFiles, SecretBox } from '../store/types';
import { keyFileText, postgresSteps, summaryText } from './backup';
import { Refusal } from './refusal';

type Out = (line: string) => void;

/** The key the server will seal with after the restore, and where it comes from. */
interface KeyChoice {
  box: SecretBox;
  /** Written to DATA_DIR/secrets.key by the restore (the backup's key file). */
  install?: Buffer;
  from: string;
}

function chooseKey(files: DatabaseFiles, config: Config, keyBeside: string, keyInDir: string): KeyChoice | null {
  const read = (f: string) => files.readKey(fs.readFileSync(f, 'utf8'));
  if (config.secretsKey) return { box: files.box(files.readKey(config.secretsKey)), from: 'SECRETS_KEY' };
  if (fs.existsSync(keyBeside)) {
    const key = read(keyBeside);
    return { box: files.box(key), install: key, from: keyBeside };
  }
  return fs.existsSync(keyInDir) ? { box: files.box(read(keyInDir)), from: keyInDir } : null;
}

export async function restore(files: DatabaseFiles, config: Config, file: string, force: boolean, out: Out): Promise<void> {
  if (config.databaseUrl) throw new Refusal(['restore puts a backup in an SQLite DATA_DIR.', ...postgresSteps(files, config)].join('\n'));
  if (config.sqlitePath === ':memory:') throw new Refusal('DATA_DIR is :memory:: set it to the directory to restore into');
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new Refusal(`there is no file ${source}`);
  if (fs.existsSync(`${source}-wal`) && fs.statSync(`${source}-wal`).size > 0) {
    throw new Refusal(`${source}-wal exists beside it: that is a live database, whose last writes are in the -wal file; make a backup of it with the backup command`);
  }
  const live = path.resolve(config.sqlitePath);
  const dir = path.dirname(live);
  const keyInDir = path.join(dir, files.keyFile);
  const existing = fs.existsSync(live);
  if (existing && !force) {
    throw new Refusal(`${live} already holds a database: stop its server, then add --force to replace it (the one there now is kept beside it)`);
  }

  const made = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const partial = `${live}.${process.pid}.restoring`;
  let done = false;
  try {
    fs.copyFileSync(source, partial, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(partial, 0o600);
    const summary = files.inspect(partial);
    files.requireKnownSchema(summary.migrations);
    const key = chooseKey(files, config, `${source}.key`, keyInDir);
    if (summary.sealedUnder.length > 0) {
      if (!key)
        throw new Refusal(
          `the backup's TSIG secrets and DNSSEC keys are sealed under key ${summary.sealedUnder.join(', ')}, and no key came with it: put its key file at ${source}.key, or set SECRETS_KEY`,
        );
      const refusal = await files.secretsRefusal(partial, key.box);
      if (refusal !== null) throw new Refusal(`the backup's secrets do not open under ${key.from} (key ${key.box.id}): ${refusal}`);
    }

    // From here on DATA_DIR changes: the database there (if any) and its key move aside.
    if (existing) files.takeStopped(live);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const aside: string[] = [];
    const moveAside = (f: string) => {
      fs.renameSync(f, `${f}.replaced-${stamp}`);
      aside.push(`${f}.replaced-${stamp}`);
    };
    // A stale -wal beside the new file would be replayed into it.
    for (const f of [...(existing ? [live] : []), ...files.companions(live)]) moveAside(f);
    if (key?.install && fs.existsSync(keyInDir) && !files.readKey(fs.readFileSync(keyInDir, 'utf8')).equals(key.install)) moveAside(keyInDir);
    if (key?.install && !fs.existsSync(keyInDir)) {
      fs.writeFileSync(`${keyInDir}.${process.pid}.restoring`, keyFileText(key.install), { mode: 0o600 });
      fs.renameSync(`${keyInDir}.${process.pid}.restoring`, keyInDir);
    }
    fs.renameSync(partial, live);
    files.restrictDataDir(dir, [path.basename(live), files.keyFile, ...aside.map((f) => path.basename(f))]);
    files.syncDir(dir);

    out(`restored ${source} (${summaryText(summary)}) into ${live}`);
    const pending = files.migrations.filter((m) => !summary.migrations.includes(m));
    if (pending.length > 0) out(`its schema is older than this zonedeck: the next start migrates it (${pending.join(', ')})`);
    for (const f of aside) out(`the file that was there is kept as ${f}`);
    if (key?.install) out(`its key (key ${key.box.id}) is ${keyInDir}, from ${key.from}`);
    else if (key && summary.sealedUnder.length > 0) out(`its secrets open under ${key.from} (key ${key.box.id}), which the server will use`);
    out('start the server on this DATA_DIR');
    done = true;
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(`${keyInDir}.${process.pid}.restoring`, { force: true });
    // A refused restore leaves no DATA_DIR behind that it made itself.
    if (!done && made) fs.rmSync(made, { recursive: true, force: true });
  }
}
