/**
 * `backup <file>`: a consistent copy of the SQLite database, taken while the server runs, and
 * beside it `<file>.key`, the key its secrets are sealed under when that is the key file (the
 * database alone reveals no secret, so the key travels as a file of its own, to be stored
 * apart). With SECRETS_KEY the key is the operator's to keep; on PostgreSQL, pg_dump does the copy.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config';
import type { DatabaseFiles, DatabaseSummary } from '../store/types';
import { Refusal } from './refusal';

type Out = (line: string) => void;

/** The steps for PostgreSQL, where the database is the operator's to copy. */
export function postgresSteps(files: DatabaseFiles, config: Pick<Config, 'secretsKey'>): string[] {
  const id = config.secretsKey ? ` (key ${files.box(files.readKey(config.secretsKey)).id})` : '';
  return [
    "This store is PostgreSQL (DATABASE_URL): back it up with PostgreSQL's own tools. While the nodes run:",
    '  pg_dump --format=custom --file=zonedeck.dump "$DATABASE_URL"',
    'To restore it, stop every node, then (into the same database, or an empty one):',
    '  pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" zonedeck.dump',
    `The TSIG secrets and DNSSEC keys in the dump are sealed under SECRETS_KEY${id}, which is not in it:`,
    'keep SECRETS_KEY with the dump, stored apart from it; without it they cannot be read.',
  ];
}

/** `key` as the key file holds it. */
export const keyFileText = (key: Buffer) => `${key.toString('base64')}\n`;

export const summaryText = (s: DatabaseSummary) => `${s.zones} zones, ${s.records} records, schema ${s.migrations.at(-1)}`;

export async function backup(files: DatabaseFiles, config: Config, file: string, force: boolean, out: Out): Promise<void> {
  if (config.databaseUrl) throw new Refusal(['backup copies the SQLite database.', ...postgresSteps(files, config)].join('\n'));
  if (config.sqlitePath === ':memory:') throw new Refusal('DATA_DIR is :memory:: there is no database file to back up');
  const source = path.resolve(config.sqlitePath);
  if (!fs.existsSync(source)) throw new Refusal(`there is no database at ${source}: set DATA_DIR to the server's data directory`);
  const target = path.resolve(file);
  const keyTarget = `${target}.key`;
  const live = [source, ...['-wal', '-shm', '-journal'].map((s) => source + s), path.join(path.dirname(source), files.keyFile)];
  if (live.includes(target) || live.includes(keyTarget)) throw new Refusal(`${file} would replace a file of the live database: name a file elsewhere`);
  if (!fs.existsSync(path.dirname(target))) throw new Refusal(`the directory ${path.dirname(target)} does not exist`);
  if (!force) {
    for (const f of [target, keyTarget]) if (fs.existsSync(f)) throw new Refusal(`${f} exists: name another file, or add --force to replace it`);
  }
  const keyFile = config.secretsKey ? null : path.join(path.dirname(source), files.keyFile);
  const key = keyFile && fs.existsSync(keyFile) ? files.readKey(fs.readFileSync(keyFile, 'utf8')) : null;

  const partial = `${target}.${process.pid}.partial`;
  const partialKey = `${keyTarget}.${process.pid}.partial`;
  let summary: DatabaseSummary;
  try {
    // Made 0600 before SQLite writes a page into it; its journal takes the same mode.
    fs.writeFileSync(partial, '', { mode: 0o600, flag: 'wx' });
    await files.copy(source, partial);
    // The copy is checked as restore will check it, before it takes the name.
    summary = files.inspect(partial);
    if (key) fs.writeFileSync(partialKey, keyFileText(key), { mode: 0o600, flag: 'wx' });
    fs.renameSync(partial, target);
    if (key) fs.renameSync(partialKey, keyTarget);
    // A key file left by an earlier backup of that name would not be this one's.
    else fs.rmSync(keyTarget, { force: true });
    files.syncDir(path.dirname(target));
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(partialKey, { force: true });
  }

  out(`backup of ${source} (${summaryText(summary)}) written to ${target}`);
  const sealed = summary.sealedUnder.length > 0 ? '' : ' (it holds none yet)';
  const keyId = key ? files.box(key).id : config.secretsKey ? files.box(files.readKey(config.secretsKey)).id : null;
  const foreign = summary.sealedUnder.filter((id) => id !== keyId);
  // The CLI does not open the store here (a backup must not migrate or seal anything), so a wrong key is only seen now.
  if (keyId && foreign.length > 0) out(`warning: secrets in it are sealed under key ${foreign.join(', ')}, not ${keyId}: the key named below does not open them`);
  if (key) {
    out(`the key its secrets are sealed under is in ${keyTarget} (key ${keyId})${sealed}`);
    out(`without ${keyTarget} the TSIG secrets and DNSSEC keys in the backup cannot be read: keep it with the backup, stored apart from it`);
  } else if (config.secretsKey) {
    out(`its secrets are sealed under SECRETS_KEY (key ${keyId})${sealed}, which is not in the backup`);
    out('keep SECRETS_KEY with the backup, stored apart from it: without it the TSIG secrets and DNSSEC keys in the backup cannot be read');
  } else {
    out(
      `there is no key file ${keyFile}${summary.sealedUnder.length > 0 ? `, yet its secrets are sealed under key ${summary.sealedUnder.join(', ')}: the TSIG secrets and DNSSEC keys in the backup cannot be read without that key` : ': the backup holds no sealed secret'}`,
    );
  }
}
