/**
 * The admin CLI (DESIGN.md §5). Same DATA_DIR / DATABASE_URL as the server; it writes
 * through the same services, so the running server sees every change at once.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { ZonedeckError } from '../core/errors';
import { createServices, type Services } from '../services';
import { openStore } from '../store/open';

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
  ips remove <id>                              remove an IP record`;

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
    default:
      throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  }
}

async function main(): Promise<number> {
  let services: Services | undefined;
  try {
    const config = loadConfig();
    const store = await openStore(config);
    services = createServices(store, { nameservers: config.nameservers, nsTtl: 3600 });
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
