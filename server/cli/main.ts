/**
 * The admin CLI (DESIGN.md §5). Same DATA_DIR / DATABASE_URL as the server; it writes
 * through the same services, so the running server sees every change at once.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { keyFromBase64, KEY_FILE, SecretBox } from '../store/secret-box';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { normalizeZoneName } from '../core/domain-name';
import { ZonedeckError } from '../core/errors';
import type { ScopeInput } from '../core/scope';
import { servicesFor, type Services } from '../services';
import { CLI_WRITE } from '../services/change-sets';
import { TransferError, transferZone } from '../dns/axfr-client';
import { parseTsigArgument, transferSigner } from '../dns/transfer-signer';
import type { DnssecPublicKey, Repos } from '../store/types';
import { dnskeyText, dsText } from '../services/dnssec-keys';
import { yArgument } from '../services/tsig-keys';
import { openStore } from '../store/open';

const USAGE = `usage: npm run cli -- <command>

  users add <username> [--password <pw>]       create a user; prints the password
  users passwd <username> [--password <pw>]    set a new password; prints it
  tokens create <username> [--label <text>] [--expires <days>] [scope]
                                               mint an API token; printed once, alone on the last line
  tokens list <username>                       list a user's tokens (never the secrets)
  tokens revoke <token-id>                     revoke a token
  ips add <username> <address-or-cidr> [--inactive]
                                               register an IP or range; prints it as JSON
  ips list <username>                          list a user's IPs as JSON
  ips remove <id>                              remove an IP record
  dnssec show <zone>                           the zone's DS and DNSKEY records
  dnssec rollover <zone> [--finish]            CSK rollover: add a new key that signs beside the
                                               current one; --finish (once the parent has the new
                                               DS and the old DS's TTL has passed) removes the old
  zones export <zone>                          print the zone as an RFC 1035 master file
  zones import <username> <zone> <file|-> [--merge] [--dry-run]
                                               replace (or --merge: add to) the zone's records with
                                               the file's, as one change set; creates the zone if missing
  zones transfer <username> <zone> <host:port> [--tsig alg:name:secret] [--merge] [--dry-run]
                                               pull the zone by AXFR from the primary it is on today
  tsig create <username> <key-name> [--algorithm <a>] [--secret <base64>] [scope]
                                               make a TSIG key; prints <algorithm>:<key-name>:<secret>
                                               alone on the last line (for nsupdate -y, dig -y)
  tsig list <username>                         list a user's TSIG keys (never the secrets)
  tsig revoke <key-name>                       revoke a TSIG key
  secrets rotate [--new-key <base64>]          re-seal every stored secret under a new key (stop the
                                               server first); with the key file it holds the new key
                                               after, with SECRETS_KEY the new key is printed alone
                                               on the last line: set it on every node

  [scope] limits a token or key (comma-separated lists; none: unrestricted):
    --zones z1,z2  --names n1,n2  --types T1,T2  --read-only  --allowed-ips cidr1,cidr2
    names are relative to their zone; "*" as the first or last label stands for one or more
    labels, e.g. --names '_acme-challenge,_acme-challenge.*'`;

class UsageError extends Error {}

function id(text: string | undefined, what: string): number {
  if (!text || !/^[0-9]+$/.test(text)) throw new UsageError(`${what} must be a number`);
  return Number(text);
}

function need(text: string | undefined, what: string): string {
  if (!text) throw new UsageError(`missing ${what}`);
  return text;
}

type Out = (line: string) => void;

export async function run(services: Services, argv: string[], out: Out): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      password: { type: 'string' },
      label: { type: 'string' },
      expires: { type: 'string' },
      inactive: { type: 'boolean' },
      finish: { type: 'boolean' },
      algorithm: { type: 'string' },
      secret: { type: 'string' },
      zones: { type: 'string' },
      names: { type: 'string' },
      types: { type: 'string' },
      'read-only': { type: 'boolean' },
      'allowed-ips': { type: 'string' },
      merge: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      tsig: { type: 'string' },
      'new-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const split = (s: string | undefined) => s?.split(',').map((x) => x.trim()).filter(Boolean);
  const scope: ScopeInput = {
    zones: split(values.zones),
    names: split(values.names),
    types: split(values.types),
    read_only: values['read-only'],
    allowed_ips: split(values['allowed-ips']),
  };
  const [group, action, a, b, c] = positionals;
  if (values.help || !group) {
    out(USAGE);
    return;
  }
  const { accounts, ips } = services;
  switch (`${group} ${action ?? ''}`) {
    case 'users add': {
      const { user, password } = await accounts.addUser(need(a, '<username>'), values.password);
      out(`created user ${user.username}`);
      out(password);
      return;
    }
    case 'users passwd': {
      const user = await accounts.userByName(need(a, '<username>'));
      out(await accounts.setPassword(user.id, values.password));
      return;
    }
    case 'tokens create': {
      const user = await accounts.userByName(need(a, '<username>'));
      const days = values.expires === undefined ? undefined : id(values.expires, '--expires');
      const expires = days === undefined ? null : new Date(Date.now() + days * 86400_000).toISOString();
      const { row, token } = await accounts.createToken(user.id, values.label ?? '', expires, scope);
      out(`token ${row.id} for ${user.username}${row.label ? ` (${row.label})` : ''}${expires ? `, expires ${expires}` : ''}; shown only once:`);
      out(token);
      return;
    }
    case 'tokens list': {
      const user = await accounts.userByName(need(a, '<username>'));
      for (const t of await accounts.listTokens(user.id)) {
        out(JSON.stringify({ id: t.id, label: t.label, created_at: t.created_at, last_used_at: t.last_used_at, expires_at: t.expires_at, scope: t.scope }));
      }
      return;
    }
    case 'tokens revoke':
      await accounts.revokeToken(id(a, '<token-id>'));
      out(`revoked token ${a}`);
      return;
    case 'ips add': {
      const user = await accounts.userByName(need(a, '<username>'));
      out(JSON.stringify(await ips.add(user.id, need(b, '<address-or-cidr>'), !values.inactive)));
      return;
    }
    case 'ips list': {
      const user = await accounts.userByName(need(a, '<username>'));
      for (const ip of await ips.all(user.id)) out(JSON.stringify(ip));
      return;
    }
    case 'ips remove':
      await ips.remove(id(a, '<id>'));
      out(`removed IP record ${a}`);
      return;
    case 'dnssec show': {
      const zone = await services.store.domains.byName(normalizeZoneName(need(a, '<zone>')));
      if (!zone) throw new UsageError(`no domain named ${a}`);
      printKeys(zone.name, (await services.zones.publicKeys([zone])).get(zone.id) ?? [], out);
      return;
    }
    case 'dnssec rollover': {
      const { zone, keys } = await services.zones.rollover(need(a, '<zone>'), values.finish ? 'finish' : 'start');
      if (values.finish) out(`${zone.name}: rollover finished; the zone is signed with key ${keys[0]!.key_tag} alone`);
      else {
        out(`${zone.name}: new key ${keys.at(-1)!.key_tag} signs beside key ${keys[0]!.key_tag} (serial ${zone.serial_number}).`);
        out(`Replace the DS at the registrar with the new one below; once the parent serves it and the old DS's TTL has passed, run: dnssec rollover ${zone.name} --finish`);
      }
      printKeys(zone.name, keys, out);
      return;
    }
    case 'tsig create': {
      const user = await accounts.userByName(need(a, '<username>'));
      const key = await services.tsigKeys.create(user.id, { name: need(b, '<key-name>'), algorithm: values.algorithm, secret: values.secret, scope });
      out(`TSIG key ${key.name} (${key.algorithm}) for ${user.username}, scope ${JSON.stringify(key.scope)}; the secret is shown only once:`);
      out(yArgument(key));
      return;
    }
    case 'tsig list': {
      const user = await accounts.userByName(need(a, '<username>'));
      for (const k of await services.tsigKeys.list(user.id)) out(JSON.stringify({ name: k.name, algorithm: k.algorithm, scope: k.scope, created_at: k.created_at }));
      return;
    }
    case 'secrets rotate': {
      const { store } = services;
      if (!store.secrets || !store.resealSecrets) throw new UsageError('this store keeps no sealed secrets');
      let next: Buffer;
      try {
        next = values['new-key'] ? keyFromBase64(values['new-key']) : randomBytes(32);
      } catch (e) {
        throw new UsageError(`--new-key ${(e as Error).message.replace(/^SECRETS_KEY /, '')}`);
      }
      const box = new SecretBox(next);
      const keyFile = store.kind === 'sqlite' && !process.env.SECRETS_KEY && process.env.DATA_DIR !== ':memory:' ? path.join(process.env.DATA_DIR || './data', KEY_FILE) : null;
      // The new key is on disk before any secret is sealed with it; it takes the old one's place after the commit.
      if (keyFile) writeFileSync(`${keyFile}.new`, `${next.toString('base64')}\n`, { mode: 0o600 });
      const n = await store.resealSecrets(box);
      if (keyFile) {
        renameSync(`${keyFile}.new`, keyFile);
        out(`re-sealed ${n} secrets under key ${box.id}; ${keyFile} holds it now (back it up: without it the secrets cannot be opened)`);
      } else {
        out(`re-sealed ${n} secrets under key ${box.id}; set SECRETS_KEY to this on every node and restart them:`);
        out(next.toString('base64'));
      }
      return;
    }
    case 'tsig revoke': {
      const key = await services.tsigKeys.revoke(need(a, '<key-name>'));
      out(`revoked TSIG key ${key.name}`);
      return;
    }
    case 'zones export': {
      const zone = await services.store.domains.byName(normalizeZoneName(need(a, '<zone>')));
      if (!zone) throw new UsageError(`no domain named ${a}`);
      process.stdout.write(await services.zoneFiles.export(zone));
      return;
    }
    case 'zones import':
    case 'zones transfer': {
      const user = await accounts.userByName(need(a, '<username>'));
      const zoneName = normalizeZoneName(need(b, '<zone>'));
      const source = need(c, action === 'import' ? '<file|->' : '<host:port>');
      const opts = { ...CLI_WRITE, dryRun: values['dry-run'] ?? false };
      const mode = values.merge ? 'merge' : 'replace';
      // Read (or transfer) first, so a file that cannot be read creates no zone.
      const transferred = action === 'transfer' ? await pull(source, zoneName, values.tsig) : undefined;
      const text = action === 'import' ? (source === '-' ? readFileSync(0, 'utf8') : readFileSync(source, 'utf8')) : undefined;
      if (!(await services.store.domains.byName(zoneName)) && !opts.dryRun) {
        await services.zones.create(user.id, { name: zoneName });
        out(`created ${zoneName} for ${user.username}`);
      }
      const locate = (tx: Repos) => services.zones.owned(user.id, zoneName, tx);
      const { change, result } = transferred
        ? await services.zoneFiles.importRecords(locate, transferred, mode, opts).then((r) => ({ ...r, result: { ignored: transferred.ignored } }))
        : await services.zoneFiles.importInto(await services.zones.owned(user.id, zoneName), locate, text!, mode, opts);
      const verb = opts.dryRun ? 'would' : change.id === null ? 'no change:' : `change ${change.id}:`;
      out(`${zoneName}: ${verb} ${opts.dryRun ? 'add' : 'added'} ${change.added.length} and ${opts.dryRun ? 'remove' : 'removed'} ${change.removed.length} records (serial ${change.serial_before} -> ${change.serial_after})`);
      for (const [field, [before, after]] of Object.entries(change.settings)) out(`  ${field}: ${String(before)} -> ${String(after)}`);
      for (const i of result.ignored) out(`  ignored ${action === 'import' ? 'line' : 'record'} ${i.line}: ${i.name} ${i.record_type}: ${i.reason}`);
      return;
    }
    default:
      throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  }
}

/** Transfers a zone from `host:port` (IPv6 as `[addr]:port`) by AXFR. */
async function pull(hostPort: string, zone: string, tsig: string | undefined) {
  const m = /^\[?([^\]]+?)\]?:([0-9]{1,5})$/.exec(hostPort);
  if (!m) throw new UsageError(`<host:port> must look like 192.0.2.1:53 or [2001:db8::1]:53, not ${hostPort}`);
  let signer;
  try {
    signer = tsig === undefined ? undefined : transferSigner(parseTsigArgument(tsig));
  } catch (e) {
    throw new UsageError(`--tsig ${e instanceof Error ? e.message : String(e)}`);
  }
  return transferZone(m[1]!, Number(m[2]), zone, signer);
}

/** A zone's DS and DNSKEY records, one per line, as the API shows them. */
function printKeys(zone: string, keys: DnssecPublicKey[], out: Out): void {
  if (keys.length === 0) out(`${zone}: DNSSEC is off`);
  for (const k of keys) out(dsText(zone, k));
  for (const k of keys) out(dnskeyText(zone, k));
}

async function main(): Promise<number> {
  let services: Services | undefined;
  try {
    const config = loadConfig();
    const store = await openStore(config);
    services = servicesFor(store, config);
    await run(services, process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (e) {
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`error: ${e.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (e instanceof ZonedeckError || e instanceof ConfigError) {
      process.stderr.write(`error: ${e.message}\n`);
      // Every bad field (or line of a zone file) on its own line.
      if (e instanceof ZonedeckError && e.fields && Object.keys(e.fields).length > 1) {
        for (const [field, message] of Object.entries(e.fields)) process.stderr.write(`  ${field}: ${message}\n`);
      }
      return 1;
    }
    if (e instanceof TransferError) {
      process.stderr.write(`error: ${e.message}\n`);
      return 1;
    }
    throw e;
  } finally {
    await services?.store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then((code) => process.exit(code));
}
