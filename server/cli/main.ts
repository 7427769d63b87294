/**
 * The admin CLI (DESIGN.md §5). Same DATA_DIR / DATABASE_URL as the server; it writes
 * through the same services, so the running server sees every change at once.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { normalizeZoneName } from '../core/domain-name';
import { ZonedeckError } from '../core/errors';
import { servicesFor, type Services } from '../services';
import { dnskeyText, dsText } from '../services/dnssec-keys';
import { openStore } from '../store/open';
import type { DnssecPublicKey } from '../store/types';

const USAGE = `usage: npm run cli -- <command>

  users add <username> [--password <pw>]       create a user; prints the password
  users passwd <username> [--password <pw>]    set a new password; prints it
  tokens create <username> [--label <text>] [--expires <days>]
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
                                               DS and the old DS's TTL has passed) removes the old`;

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
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, action, a, b] = positionals;
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
      const { row, token } = await accounts.createToken(user.id, values.label ?? '', expires);
      out(`token ${row.id} for ${user.username}${row.label ? ` (${row.label})` : ''}${expires ? `, expires ${expires}` : ''}; shown only once:`);
      out(token);
      return;
    }
    case 'tokens list': {
      const user = await accounts.userByName(need(a, '<username>'));
      for (const t of await accounts.listTokens(user.id)) {
        out(JSON.stringify({ id: t.id, label: t.label, created_at: t.created_at, last_used_at: t.last_used_at, expires_at: t.expires_at }));
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
    default:
      throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  }
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
