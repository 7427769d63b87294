/**
 * The admin CLI: reads the command line against the table of commands.ts, runs the
 * command's handler (handlers.ts) and turns its errors into a message and an exit code.
 * A composition root, like server/main.ts: it opens the store, and hands the handlers the
 * services and what is not a service (deps.ts), so that no other file of the CLI imports them.
 */
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv, type Config } from '../config';
import { ZonedeckError } from '../core/errors';
import type { ScopeInput } from '../core/scope';
import { servicesFor, type Services } from '../services';
import { TransferError, transferZone } from '../dns/transfer/axfr-client';
import { parseTsigArgument, transferSigner } from '../dns/transfer/transfer-signer';
import { SchemaTooNewError } from '../store/migrate';
import { openStore } from '../store/open';
import { SecretsKeyError } from '../store/secret-box';
import { DatabaseFileError, sqliteFiles } from '../store/sqlite/sqlite-backup';
import { commandsNamed, findCommand, flagAllowed, FLAGS, HELP_POINTER, synopsis, usage, type CommandSpec } from './commands';
import type { CliDeps } from './deps';
import { HANDLERS, UsageError, type Out } from './handlers';
import { databaseLine, requireDatabase } from './database';
import { Refusal } from './refusal';

/** A usage error of one command: its usage line goes with the message. */
class CommandUsageError extends UsageError {
  constructor(
    message: string,
    readonly command: CommandSpec,
  ) {
    super(message);
  }
}

const DEPS: CliDeps = {
  transfer: {
    checkKey: (tsig) => void parseTsigArgument(tsig),
    pull: (host, port, zone, tsig) => transferZone(host, port, zone, tsig === undefined ? undefined : transferSigner(parseTsigArgument(tsig))),
  },
  files: sqliteFiles,
};

/**
 * Runs the command `argv` names with `given` services (a test's), or else with the store the
 * configuration names, opened only if the command asks for it and closed after.
 */
export async function run(given: Services | undefined, argv: string[], out: Out, say: Out = (line) => process.stderr.write(`${line}\n`)): Promise<void> {
  const { values, positionals, tokens } = parseArgs({ args: argv, allowPositionals: true, options: FLAGS, tokens: true });
  if (positionals.length === 0) {
    out(usage());
    return;
  }
  const found = findCommand(positionals);
  if (values.help) {
    const only = commandsNamed(positionals);
    if (only.length === 0) throw new UsageError(`unknown command "${positionals.join(' ')}"`);
    out(usage(only));
    return;
  }
  if (!found) throw new UsageError(`unknown command "${positionals.join(' ')}"`);
  const { command, args } = found;
  for (const t of tokens) {
    if (t.kind === 'option' && !flagAllowed(command, t.name)) throw new CommandUsageError(`${t.rawName} is not a flag of ${command.name}`, command);
  }
  const split = (s: string | undefined) =>
    s
      ?.split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  const scope: ScopeInput = {
    zones: split(values.zones),
    names: split(values.names),
    types: split(values.types),
    read_only: values['read-only'],
    allowed_ips: split(values['allowed-ips']),
  };
  let config: Config | undefined;
  // The first command to need the configuration names the database it is about to use (not a test's own services).
  const getConfig = () => {
    if (!config) {
      config = loadConfig();
      if (!given) say(databaseLine(config));
    }
    return config;
  };
  const openServices = async () => {
    await requireDatabase(getConfig(), values.init ?? false);
    return servicesFor(await openStore(getConfig()), getConfig());
  };
  let opened: Services | undefined;
  try {
    await HANDLERS[command.name]({
      // Read when a command needs it, so that help answers whatever the environment holds.
      get config() {
        return getConfig();
      },
      args,
      values,
      scope,
      out,
      services: async () => given ?? (opened ??= await openServices()),
      deps: DEPS,
    });
  } catch (e) {
    if (e instanceof UsageError && !(e instanceof CommandUsageError)) throw new CommandUsageError(e.message, command);
    throw e;
  } finally {
    await opened?.close();
  }
}

async function main(): Promise<number> {
  try {
    await run(undefined, process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (e) {
    if (e instanceof CommandUsageError) {
      process.stderr.write(`error: ${e.message}\n\nusage: npm run cli -- ${synopsis(e.command)}\n${HELP_POINTER}\n`);
      return 2;
    }
    if (e instanceof UsageError || (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS'))) {
      process.stderr.write(`error: ${e.message}\n${HELP_POINTER}\n`);
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
    if (e instanceof TransferError || e instanceof Refusal || e instanceof DatabaseFileError || e instanceof SchemaTooNewError || e instanceof SecretsKeyError) {
      process.stderr.write(`error: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

/**
 * Run as a program (not imported by a test): the file Node was asked to run is this one, or, built,
 * its launcher build/cli.js beside build/cli-main.js (scripts/build-server.mjs), through any symlink
 * or odd character of its path.
 */
function runAsProgram(): boolean {
  try {
    if (process.argv[1] === undefined) return false;
    const asked = realpathSync(process.argv[1]);
    const self = realpathSync(fileURLToPath(import.meta.url));
    return asked === self || (path.basename(self) === 'cli-main.js' && asked === path.join(path.dirname(self), 'cli.js'));
  } catch {
    return false;
  }
}

if (runAsProgram()) {
  try {
    loadDotEnv();
  } catch (e) {
    process.stderr.write(`zonedeck: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  main().then((code) => process.exit(code));
}
