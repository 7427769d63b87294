/**
 * Every command of the admin CLI and every flag, in one table: the parser's options, the check
 * that a flag belongs to its command, `--help` and `<command> --help` are all made from it.
 * main.ts holds one handler per name, which the type checker matches against this table.
 */
import { DEFAULT_TSIG_ALGORITHM, TSIG_ALGORITHM_NAMES } from '../core/tsig-rules';

interface Flag {
  type: 'string' | 'boolean';
  short?: string;
  /** What the value looks like, for a string flag (`<pw>`). */
  value?: string;
  about: string;
}

export const FLAGS = {
  password: { type: 'string', value: '<pw>', about: 'the password to set (else one is generated)' },
  admin: { type: 'boolean', about: 'make the user an administrator: manages users and every team in the dashboard' },
  label: { type: 'string', value: '<text>', about: 'a label to recognize the token by' },
  expires: { type: 'string', value: '<days>', about: 'the token stops working after this many days' },
  inactive: { type: 'boolean', about: 'register the address without letting it be used yet' },
  kind: { type: 'string', value: '<kind>', about: 'which keys to roll: csk, ksk, zsk or algorithm (default: the KSK or CSK)' },
  algorithm: { type: 'string', value: '<a>', about: `one of ${TSIG_ALGORITHM_NAMES.join(', ')} (default ${DEFAULT_TSIG_ALGORITHM})` },
  secret: { type: 'string', value: '<base64>', about: 'the secret to use (else 32 random octets)' },
  merge: { type: 'boolean', about: "add the file's records to the zone instead of replacing its records" },
  'dry-run': { type: 'boolean', about: 'print the change without applying it' },
  tsig: { type: 'string', value: 'alg:name:secret', about: 'sign the AXFR query with this TSIG key and verify the answer' },
  'new-key': { type: 'string', value: '<base64>', about: 'the new key (else a random one)' },
  force: { type: 'boolean', about: 'replace what is there (restore keeps the replaced database beside it)' },
  zones: { type: 'string', value: 'z1,z2', about: 'only these zones' },
  from: { type: 'string', value: 'ns1,ns2', about: 'only zones whose apex NS set is exactly these name servers' },
  names: { type: 'string', value: 'n1,n2', about: 'only these names, relative to their zone; "*" as the first or last label stands for one or more labels' },
  types: { type: 'string', value: 'T1,T2', about: 'only these record types' },
  'read-only': { type: 'boolean', about: 'read, never write' },
  'allowed-ips': { type: 'string', value: 'cidr1,cidr2', about: 'only from these addresses' },
  init: { type: 'boolean', about: 'create the database when there is none yet (before the first start); without it a command refuses a DATA_DIR or DATABASE_URL that holds no database' },
  key: { type: 'string', value: '<key-name>', about: "one of the user's TSIG keys, to sign the secondary zone's transfers" },
  help: { type: 'boolean', short: 'h', about: 'print the commands (or this command) and their flags' },
} as const satisfies Record<string, Flag>;

export type FlagName = keyof typeof FLAGS;

/** The flags `[scope]` stands for: they limit a token or a TSIG key. */
export const SCOPE_FLAGS = ['zones', 'names', 'types', 'read-only', 'allowed-ips'] as const satisfies readonly FlagName[];

interface Command {
  /** One or two words: `backup`, `users add`. */
  name: string;
  /** Positional arguments, as the usage line shows them. */
  args?: string;
  flags?: readonly FlagName[];
  /** Takes the `[scope]` flags. */
  scope?: boolean;
  about: string;
}

export const COMMANDS = [
  { name: 'users add', args: '<username>', flags: ['password', 'admin'], about: 'create a user; prints the password' },
  {
    name: 'users passwd',
    args: '<username>',
    flags: ['password'],
    about: "set a new password and end the user's dashboard sessions; prints it (the dashboard asks the user for their own at sign-in)",
  },
  { name: 'users admin', args: '<username> <on|off>', about: 'grant (on) or revoke (off) admin rights' },
  { name: 'users disable', args: '<username>', about: 'stop the user: no sign-in, their sessions end, their tokens and TSIG keys stop working' },
  { name: 'users enable', args: '<username>', about: 'let a disabled user in again; their tokens and TSIG keys work again' },
  { name: 'users email', args: '<username> <address|none>', about: "set a user's email address (none clears it); a first single sign-on with it is told to link from the Account page" },
  {
    name: 'settings password-sign-in',
    args: '<on|off>',
    about: 'turn password sign-in to the dashboard on or off for everyone (the way back when no administrator can sign in); off needs OIDC_ISSUER and its client set',
  },
  { name: 'tokens create', args: '<username>', flags: ['label', 'expires'], scope: true, about: 'mint an API token; printed once, alone on the last line' },
  { name: 'tokens list', args: '<username>', about: "list a user's tokens as JSON lines (never the secrets)" },
  { name: 'tokens revoke', args: '<token-id>', about: 'revoke a token' },
  { name: 'ips add', args: '<username> <address-or-cidr>', flags: ['inactive'], about: 'register an IP or range; prints it as JSON' },
  { name: 'ips list', args: '<username>', about: "list a user's IPs as JSON lines" },
  { name: 'ips remove', args: '<id>', about: 'remove an IP record' },
  { name: 'dnssec show', args: '<zone>', about: "the zone's DS and DNSKEY records" },
  {
    name: 'dnssec rollover',
    args: '<zone>',
    flags: ['kind'],
    about: 'start a key rollover now; the running server makes every step by itself, waiting the TTLs and for the parent to serve the new DS',
  },
  { name: 'zones export', args: '<zone>', about: 'print the zone as an RFC 1035 master file' },
  {
    name: 'nameservers move',
    flags: ['from', 'zones', 'dry-run'],
    about: 'move primary zones to NAMESERVERS (their apex NS set), one change set each; without --from every zone on another set moves',
  },
  {
    name: 'zones import',
    args: '<username> <zone> <file|->',
    flags: ['merge', 'dry-run'],
    about: "replace (or --merge: add to) the zone's records with the file's, as one change set; creates the zone if missing",
  },
  { name: 'zones transfer', args: '<username> <zone> <host:port>', flags: ['tsig', 'merge', 'dry-run'], about: 'pull the zone by AXFR from the primary it is on today' },
  {
    name: 'zones secondary',
    args: '<username> <zone> <host:port[,host:port…]>',
    flags: ['key'],
    about: 'make a secondary zone of these primaries, followed by NOTIFY and IXFR from then on (the running server transfers it within a second)',
  },
  {
    name: 'tsig create',
    args: '<username> <key-name>',
    flags: ['algorithm', 'secret'],
    scope: true,
    about: 'make a TSIG key; prints <algorithm>:<key-name>:<secret> alone on the last line (for nsupdate -y, dig -y)',
  },
  { name: 'tsig list', args: '<username>', about: "list a user's TSIG keys as JSON lines (never the secrets)" },
  { name: 'tsig revoke', args: '<key-name>', about: 'revoke a TSIG key' },
  {
    name: 'secrets rotate',
    flags: ['new-key'],
    about:
      're-seal every stored secret under a new key (stop the server first); with the key file it holds the new key after, with SECRETS_KEY the new key is printed alone on the last line: set it on every node',
  },
  {
    name: 'backup',
    args: '<file>',
    flags: ['force'],
    about:
      "a consistent copy of the SQLite database, safe while the server runs; with the key file, its key goes to <file>.key (without it the backup's TSIG secrets and DNSSEC keys cannot be read). PostgreSQL: prints the pg_dump steps",
  },
  {
    name: 'restore',
    args: '<file>',
    flags: ['force'],
    about: 'put a backup in DATA_DIR while its server is stopped, with <file>.key if there is one; checks it first; --force replaces a database that is there',
  },
  { name: 'help', args: '[command]', about: 'print the commands and their flags (also: --help, <command> --help)' },
] as const satisfies readonly Command[];

export type CommandName = (typeof COMMANDS)[number]['name'];
export type CommandSpec = Command & { name: CommandName };

/** The command the positionals name (two words before one), and the arguments after it. */
export function findCommand(positionals: readonly string[]): { command: CommandSpec; args: string[] } | null {
  const [a, b] = positionals;
  const two = COMMANDS.find((c) => c.name === `${a} ${b}`);
  if (two) return { command: two, args: positionals.slice(2) };
  const one = COMMANDS.find((c) => c.name === a);
  return one ? { command: one, args: positionals.slice(1) } : null;
}

/** The commands `help <words>` or `<words> --help` asks about: one command, or every command of a group. */
export function commandsNamed(words: readonly string[]): CommandSpec[] {
  const found = findCommand(words);
  if (found) return [found.command];
  return COMMANDS.filter((c) => words.length === 1 && c.name.startsWith(`${words[0]} `));
}

function flagsOf(c: CommandSpec): FlagName[] {
  return [...(c.flags ?? []), ...(c.scope ? SCOPE_FLAGS : [])];
}

/** The commands that never open the store (backup and restore read and write the file themselves). */
export const STORELESS: readonly CommandName[] = ['backup', 'restore', 'help'];

export function flagAllowed(c: CommandSpec, flag: string): boolean {
  return flag === 'help' || (flag === 'init' && !STORELESS.includes(c.name)) || (flagsOf(c) as string[]).includes(flag);
}

const flagText = (name: FlagName) => {
  const f: Flag = FLAGS[name];
  return `--${name}${f.value ? ` ${f.value}` : ''}`;
};

export function synopsis(c: CommandSpec): string {
  return [c.name, c.args, ...(c.flags ?? []).map((f) => `[${flagText(f)}]`), c.scope ? '[scope]' : ''].filter(Boolean).join(' ');
}

/** `text` in lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

const COLUMN = 47;
const pad = (s: string) => s.padEnd(COLUMN);

function entry(c: CommandSpec, withFlags: boolean): string[] {
  const head = `  ${synopsis(c)}`;
  const about = wrap(c.about, 100 - COLUMN);
  const lines = head.length < COLUMN ? [pad(head) + about[0], ...about.slice(1).map((l) => pad('') + l)] : [head, ...about.map((l) => pad('') + l)];
  if (withFlags)
    for (const f of [...flagsOf(c), ...(STORELESS.includes(c.name) ? [] : (['init'] as const))])
      lines.push(...wrap(FLAGS[f].about, 100 - COLUMN).map((l, i) => pad(i === 0 ? `    ${flagText(f)}` : '') + l));
  return lines;
}

const SCOPE_NOTE = [
  '  [scope] limits a token or key (comma-separated lists; none: unrestricted):',
  `    ${SCOPE_FLAGS.map(flagText).join('  ')}`,
  '    names are relative to their zone; "*" as the first or last label stands for one or more',
  "    labels, e.g. --names '_acme-challenge,_acme-challenge.*'",
];

/** The help text: every command (or the ones given, with each flag explained). */
export function usage(only?: readonly CommandSpec[]): string {
  const list = only ?? COMMANDS;
  const lines = ['usage: npm run cli -- <command> [flags]', '', ...list.flatMap((c) => entry(c, only !== undefined))];
  if (!only || only.some((c) => c.scope)) lines.push('', ...SCOPE_NOTE);
  if (!only) {
    lines.push(
      '',
      '  <command> --help explains each flag of a command. DATA_DIR or DATABASE_URL names the database, as for the server;',
      '  each command names it on stderr and refuses one that does not exist unless given --init (creates it).',
    );
  }
  return lines.join('\n');
}

export const HELP_POINTER = 'run "npm run cli -- --help" for every command and flag';
