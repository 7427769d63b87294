/**
 * What each command of the admin CLI does, one handler per name of the table in
 * commands.ts. Same DATA_DIR / DATABASE_URL as the server; writes go through the same services,
 * so the running server sees every change at once.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { parseArgs } from 'node:util';
import type { Config } from '../config';
import { normalizeZoneName } from '../core/domain-name';
import { Invalid } from '../core/errors';
import type { ScopeInput } from '../core/scope';
import type { Services } from '../services';
import { CLI_WRITE } from '../services/changes/change-sets';
import { ROLLOVER_KINDS, type RolloverKind } from '../services/dnssec/rollover-steps';
import { dnskeyText, dsText } from '../services/dnssec/key-material';
import { yArgument } from '../services/identity/tsig-keys';
import type { DnssecPublicKey, ReadRepos, UserRow } from '../store/types';
import { tokenDetail, tsigKeyDetail, type AuditActor } from '../services/identity/audit';
import type { UserPatch } from '../services/identity/users';
import { backup } from './backup';
import { commandsNamed, usage, type CommandName, type FLAGS } from './commands';
import type { CliDeps } from './deps';
import { restore } from './restore';
import { moveNameservers } from './nameservers';

export class UsageError extends Error {}

export type Out = (line: string) => void;

export interface Context {
  config: Config;
  /** The positional arguments after the command's name. */
  args: string[];
  values: ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true }>>['values'];
  scope: ScopeInput;
  /** Opens the store on first use: backup, restore and help never do. */
  services(): Promise<Services>;
  /** What is not a service: the AXFR client, the database as files (main.ts, the composition root, hands them in). */
  deps: CliDeps;
  out: Out;
}

function id(text: string | undefined, what: string): number {
  if (!text || !/^[0-9]+$/.test(text)) throw new UsageError(`${what} must be a number`);
  return Number(text);
}

function need(text: string | undefined, what: string): string {
  if (!text) throw new UsageError(`missing ${what}`);
  return text;
}

/** The admin CLI in the audit log: an operator at the shell, no user of the service. */
const CLI: AuditActor = { username: '', credential: 'cli' };

const subjectOf = (u: UserRow) => ({ id: u.id, username: u.username });

async function setUser({ args: [name], services, out }: Context, patch: UserPatch, done: string): Promise<void> {
  const user = await (await services()).users.update(CLI, need(name, '<username>'), patch);
  out(`${user.username} ${done}`);
}

export const HANDLERS: Record<CommandName, (ctx: Context) => Promise<void>> = {
  async 'users add'({ args: [name], values, services, out }) {
    const { user, password } = await (
      await services()
    ).users.create(CLI, need(name, '<username>'), {
      password: values.password,
      isAdmin: values.admin ?? false,
      // Not asked to change it: scripts and people sign in with what this printed, as they always have;
      // the first start's admin password (printed to a log) and a reset are (docs/dashboard.md).
    });
    out(`created ${user.is_admin ? 'administrator' : 'user'} ${user.username}`);
    out(password);
  },
  async 'users passwd'({ args: [name], values, services, out }) {
    // A reset is read off this terminal by someone else than the user: they choose their own at next sign-in.
    out((await (await services()).users.resetPassword(CLI, need(name, '<username>'), values.password, true)).password);
  },
  'users admin': (ctx) => {
    const on = need(ctx.args[1], '<on|off>');
    if (on !== 'on' && on !== 'off') throw new UsageError(`<on|off> must be on or off, not ${on}`);
    return setUser(ctx, { is_admin: on === 'on' }, on === 'on' ? 'is an administrator' : 'is no longer an administrator');
  },
  'users disable': (ctx) => setUser(ctx, { disabled: true }, 'is disabled: no sign-in, no token or TSIG key of theirs works'),
  'users enable': (ctx) => setUser(ctx, { disabled: false }, 'is enabled'),
  async 'users email'({ args: [name, address], services, out }) {
    const given = need(address, '<address|none>').trim().toLowerCase();
    const email = given === 'none' ? null : given;
    if (email !== null && (email.length > 254 || !/^[^\s@\u0000-\u001f\u007f]{1,64}@[^\s@\u0000-\u001f\u007f]{1,189}$/.test(email))) {
      throw new UsageError(`<address> must be an email address like alice@example.com, or none`);
    }
    const { user } = await (await services()).users.setEmail(CLI, need(name, '<username>'), email).catch((e: unknown) => {
      throw e instanceof Invalid && e.fields?.email ? new UsageError(`${email} ${e.fields.email}`) : e;
    });
    out(email === null ? `${user.username} has no email address` : `${user.username} has the email address ${email}`);
  },
  async 'settings password-sign-in'({ args: [state], services, out }) {
    const on = need(state, '<on|off>');
    if (on !== 'on' && on !== 'off') throw new UsageError(`<on|off> must be on or off, not ${on}`);
    await (await services()).signInSettings.setPassword(CLI, on === 'on');
    out(on === 'on' ? 'password sign-in is on' : 'password sign-in is off: users sign in with single sign-on or a passkey');
  },
  async 'tokens create'({ args: [name], values, scope, services, out }) {
    const { accounts, audit } = await services();
    const user = await accounts.userByName(need(name, '<username>'));
    const days = values.expires === undefined ? undefined : id(values.expires, '--expires');
    const expires = days === undefined ? null : new Date(Date.now() + days * 86400_000).toISOString();
    const { row, token } = await accounts.createToken(user.id, values.label ?? '', expires, scope);
    await audit.record({ kind: 'token-created', actor: CLI, subject: subjectOf(user), detail: tokenDetail(row) });
    out(`token ${row.id} for ${user.username}${row.label ? ` (${row.label})` : ''}${expires ? `, expires ${expires}` : ''}; shown only once:`);
    out(token);
  },
  async 'tokens list'({ args: [name], services, out }) {
    const { accounts } = await services();
    const user = await accounts.userByName(need(name, '<username>'));
    for (const t of await accounts.listTokens(user.id)) {
      out(JSON.stringify({ id: t.id, label: t.label, created_at: t.created_at, last_used_at: t.last_used_at, expires_at: t.expires_at, scope: t.scope }));
    }
  },
  async 'tokens revoke'({ args: [token], services, out }) {
    const { accounts, audit, store } = await services();
    const tokenId = id(token, '<token-id>');
    const row = await store.tokens.byId(tokenId);
    await accounts.revokeToken(tokenId);
    const user = row && (await store.users.byId(row.user_id));
    if (row && user) await audit.record({ kind: 'token-revoked', actor: CLI, subject: subjectOf(user), detail: tokenDetail(row) });
    out(`revoked token ${token}`);
  },
  async 'ips add'({ args: [name, address], values, services, out }) {
    const { accounts, ips } = await services();
    const user = await accounts.userByName(need(name, '<username>'));
    out(JSON.stringify(await ips.add(user.id, need(address, '<address-or-cidr>'), !values.inactive)));
  },
  async 'ips list'({ args: [name], services, out }) {
    const { accounts, ips } = await services();
    const user = await accounts.userByName(need(name, '<username>'));
    for (const ip of await ips.all(user.id)) out(JSON.stringify(ip));
  },
  async 'ips remove'({ args: [ip], services, out }) {
    await (await services()).ips.remove(id(ip, '<id>'));
    out(`removed IP record ${ip}`);
  },
  async 'dnssec show'({ args: [name], services, out }) {
    const s = await services();
    const zone = await s.store.domains.byName(normalizeZoneName(need(name, '<zone>')));
    if (!zone) throw new UsageError(`no domain named ${name}`);
    printKeys(zone.name, (await s.zones.publicKeys([zone])).get(zone.id) ?? [], out);
  },
  async 'dnssec rollover'({ args: [name], values, services, out }) {
    const s = await services();
    const found = await s.store.domains.byName(normalizeZoneName(need(name, '<zone>')));
    if (!found) throw new UsageError(`no domain named ${name}`);
    const kind = values.kind as RolloverKind | undefined;
    if (kind !== undefined && !ROLLOVER_KINDS.includes(kind)) throw new UsageError(`--kind must be one of ${ROLLOVER_KINDS.join(', ')}`);
    const zone = await s.dnssec.startNow(found, kind, CLI_WRITE);
    const view = await s.dnssec.view(zone);
    out(`${zone.name}: ${view.rollover ? `${view.rollover.kind.toUpperCase()} rollover started (serial ${zone.serial_number}).` : 'rollover started.'}`);
    if (view.rollover) out(view.rollover.description);
    out('The running server makes every step by itself; follow it with: dnssec show ' + zone.name);
    printKeys(zone.name, view.keys, out);
  },
  async 'zones export'({ args: [name], services }) {
    const s = await services();
    const zone = await s.store.domains.byName(normalizeZoneName(need(name, '<zone>')));
    if (!zone) throw new UsageError(`no domain named ${name}`);
    process.stdout.write(await s.zoneFiles.export(zone));
  },
  'zones import': (ctx) => importZone(ctx, 'import'),
  'nameservers move': (ctx) => moveNameservers(ctx),
  'zones transfer': (ctx) => importZone(ctx, 'transfer'),
  async 'zones secondary'({ args: [name, zone, primaries], values, services, out }) {
    const s = await services();
    const user = await s.accounts.userByName(need(name, '<username>'));
    const list = need(primaries, '<host:port[,host:port…]>').split(',');
    const created = await s.zones.create(user.id, { name: need(zone, '<zone>'), secondary: { primaries: list, tsig_key: values.key ?? null } });
    out(`secondary zone ${created.name} of ${(created.primaries ?? []).join(', ')} for ${user.username}; the running server transfers it within a second`);
  },
  async 'tsig create'({ args: [name, keyName], values, scope, services, out }) {
    const s = await services();
    const user = await s.accounts.userByName(need(name, '<username>'));
    const key = await s.tsigKeys.create(user.id, { name: need(keyName, '<key-name>'), algorithm: values.algorithm, secret: values.secret, scope });
    await s.audit.record({ kind: 'tsig-key-created', actor: CLI, subject: subjectOf(user), detail: tsigKeyDetail(key) });
    out(`TSIG key ${key.name} (${key.algorithm}) for ${user.username}, scope ${JSON.stringify(key.scope)}; the secret is shown only once:`);
    out(yArgument(key));
  },
  async 'tsig list'({ args: [name], services, out }) {
    const s = await services();
    const user = await s.accounts.userByName(need(name, '<username>'));
    for (const k of await s.tsigKeys.list(user.id)) out(JSON.stringify({ name: k.name, algorithm: k.algorithm, scope: k.scope, created_at: k.created_at }));
  },
  async 'tsig revoke'({ args: [keyName], services, out }) {
    const s = await services();
    const key = await s.tsigKeys.revoke(need(keyName, '<key-name>'));
    const user = await s.store.users.byId(key.user_id);
    if (user) await s.audit.record({ kind: 'tsig-key-deleted', actor: CLI, subject: subjectOf(user), detail: tsigKeyDetail(key) });
    out(`revoked TSIG key ${key.name}`);
  },
  async 'secrets rotate'({ config, values, services, deps: { files }, out }) {
    const { store, secrets } = await services();
    if (!secrets.box || !secrets.reseal) throw new UsageError('this store keeps no sealed secrets');
    let next: Buffer;
    try {
      next = values['new-key'] ? files.readKey(values['new-key']) : randomBytes(32);
    } catch (e) {
      throw new UsageError(`--new-key ${(e as Error).message.replace(/^SECRETS_KEY /, '')}`);
    }
    const box = files.box(next);
    const keyFile = store.kind === 'sqlite' && !config.secretsKey && config.sqlitePath !== ':memory:' ? path.join(path.dirname(config.sqlitePath), files.keyFile) : null;
    // The new key is on disk before any secret is sealed with it; it takes the old one's place after the commit.
    if (keyFile) writeFileSync(`${keyFile}.new`, `${next.toString('base64')}\n`, { mode: 0o600 });
    const n = await secrets.reseal(box);
    if (keyFile) {
      renameSync(`${keyFile}.new`, keyFile);
      out(`re-sealed ${n} secrets under key ${box.id}; ${keyFile} holds it now (back it up: without it the secrets cannot be opened)`);
    } else {
      out(`re-sealed ${n} secrets under key ${box.id}; set SECRETS_KEY to this on every node and restart them:`);
      out(next.toString('base64'));
    }
  },
  backup: ({ config, args: [file], values, deps, out }) => backup(deps.files, config, need(file, '<file>'), values.force ?? false, out),
  restore: ({ config, args: [file], values, deps, out }) => restore(deps.files, config, need(file, '<file>'), values.force ?? false, out),
  async help({ args, out }) {
    const only = args.length > 0 ? commandsNamed(args) : undefined;
    if (only?.length === 0) throw new UsageError(`unknown command "${args.join(' ')}"`);
    out(usage(only));
  },
};

async function importZone({ args: [name, zoneArg, sourceArg], values, services, deps, out }: Context, action: 'import' | 'transfer'): Promise<void> {
  const s = await services();
  const user = await s.accounts.userByName(need(name, '<username>'));
  const zoneName = normalizeZoneName(need(zoneArg, '<zone>'));
  const source = need(sourceArg, action === 'import' ? '<file|->' : '<host:port>');
  const opts = { ...CLI_WRITE, dryRun: values['dry-run'] ?? false };
  const mode = values.merge ? 'merge' : 'replace';
  // Read (or transfer) first, so a file that cannot be read creates no zone.
  const transferred = action === 'transfer' ? await pull(deps, source, zoneName, values.tsig) : undefined;
  const text = action === 'import' ? (source === '-' ? readFileSync(0, 'utf8') : readFileSync(source, 'utf8')) : undefined;
  if (!(await s.store.domains.byName(zoneName)) && !opts.dryRun) {
    await s.zones.create(user.id, { name: zoneName });
    out(`created ${zoneName} for ${user.username}`);
  }
  const locate = (tx: ReadRepos) => s.zones.owned(user.id, zoneName, tx);
  const { change, result } = transferred
    ? await s.zoneFiles.importRecords(locate, transferred, mode, opts).then((r) => ({ ...r, result: { ignored: transferred.ignored } }))
    : await s.zoneFiles.importInto(await s.zones.owned(user.id, zoneName), locate, text!, mode, opts);
  const verb = opts.dryRun ? 'would' : change.id === null ? 'no change:' : `change ${change.id}:`;
  out(
    `${zoneName}: ${verb} ${opts.dryRun ? 'add' : 'added'} ${change.added.length} and ${opts.dryRun ? 'remove' : 'removed'} ${change.removed.length} records (serial ${change.serial_before} -> ${change.serial_after})`,
  );
  for (const [field, [before, after]] of Object.entries(change.settings)) out(`  ${field}: ${String(before)} -> ${String(after)}`);
  for (const i of result.ignored) out(`  ignored ${action === 'import' ? 'line' : 'record'} ${i.line}: ${i.name} ${i.record_type}: ${i.reason}`);
}

/** Transfers a zone from `host:port` (IPv6 as `[addr]:port`) by AXFR. */
async function pull({ transfer }: CliDeps, hostPort: string, zone: string, tsig: string | undefined) {
  const m = /^\[?([^\]]+?)\]?:([0-9]{1,5})$/.exec(hostPort);
  if (!m) throw new UsageError(`<host:port> must look like 192.0.2.1:53 or [2001:db8::1]:53, not ${hostPort}`);
  try {
    if (tsig !== undefined) transfer.checkKey(tsig);
  } catch (e) {
    throw new UsageError(`--tsig ${e instanceof Error ? e.message : String(e)}`);
  }
  return transfer.pull(m[1]!, Number(m[2]), zone, tsig);
}

/** A zone's DS and DNSKEY records, one per line, as the API shows them. */
/** The DS the parent should hold now (the CDS set) and the DNSKEY set as published; each key's role and state when a rollover moves them. */
function printKeys(zone: string, keys: DnssecPublicKey[], out: Out): void {
  if (keys.length === 0) out(`${zone}: DNSSEC is off`);
  for (const k of keys.filter((k) => k.in_cds)) out(dsText(zone, k));
  for (const k of keys.filter((k) => k.published)) out(dnskeyText(zone, k));
  if (keys.length > 1) for (const k of keys) out(`; ${k.role.toUpperCase()} ${k.key_tag}: ${k.state}${k.signing ? ', signing' : ''}${k.published ? ', published' : ''}${k.in_cds ? ', in CDS' : ''}`);
}
