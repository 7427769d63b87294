/**
 * The SQLite database as files, for the CLI's `backup` and `restore`: a consistent copy taken while
 * the server writes, the checks a file passes before it becomes a data directory's database, and
 * the key its secrets are sealed under. store/sqlite/sqlite-backup.ts implements it; the CLI's
 * composition root hands it to the commands.
 */
import type { SecretBox } from '../secret-box';

export type { SecretBox };

/** What a database file holds, as backup and restore report it. */
export interface DatabaseSummary {
  /** Migrations it has run, in name order; the last is its schema version. */
  migrations: string[];
  zones: number;
  records: number;
  /** Ids of the keys its TSIG secrets and DNSSEC private keys are sealed under (none in clear). */
  sealedUnder: string[];
}

export interface DatabaseFiles {
  /** The key file beside the database (`secrets.key`), which seals its secrets when SECRETS_KEY is unset. */
  readonly keyFile: string;
  /** The migrations this code knows, in name order. */
  readonly migrations: readonly string[];
  /** A key from its base64 text (SECRETS_KEY, a key file); throws SecretsKeyError when it is not 32 octets. */
  readKey(text: string): Buffer;
  /** The box that seals and opens under `key`; its id is the one sealed values carry. */
  box(key: Buffer): SecretBox;
  /** Copies the database at `source` to `dest` (a new, empty file the caller made 0600) while other processes write it. */
  copy(source: string, dest: string): Promise<void>;
  /** Checks that `file` is a sound zonedeck database and says what it holds; throws DatabaseFileError otherwise. */
  inspect(file: string): DatabaseSummary;
  /** Throws SchemaTooNewError when `migrations` holds one this code does not know. */
  requireKnownSchema(migrations: readonly string[]): void;
  /** Why the sealed secrets of `file` do not open under `box` (SecretsKeyError's message), or null when they do. */
  secretsRefusal(file: string, box: SecretBox): Promise<string | null>;
  /** Makes sure no process has `file` open and leaves it one self-contained file; throws DatabaseFileError when one does. */
  takeStopped(file: string): void;
  /** The companion files SQLite may leave beside `file` (-wal, -shm, -journal) that are there. */
  companions(file: string): string[];
  /** DATA_DIR 0700 and `files` in it 0600; answers the paths that stay readable by others. */
  restrictDataDir(dir: string, files: readonly string[]): string[];
  /** Makes a rename in `dir` durable. */
  syncDir(dir: string): void;
}
