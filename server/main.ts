/** Wires configuration, store, services, HTTP and DNS. No logic of its own. */
import { buildApp } from './app';
import { ConfigError, loadConfig, loadDotEnv, type Config } from './config';
import { startDnsThread } from './dns/sync/thread';
import { pullClient } from './dns/transfer/zone-pull';
import { deliver } from './outbound/deliver';
import { probe } from './outbound/probe';
import os from 'node:os';
import { startHttp, stopHttp } from './http/http-server';
import { Admission } from './http/overload';
import { watchLoopDelay } from './http/loop-delay';
import { startJob } from './background';
import { backgroundFailures } from './metrics';
import { parseHostPort } from './core/host-port';
import { createAliasSerials } from './services/zones/alias-serials';
import { resignSignedZones, RESIGN_EVERY_MS } from './services/zones/resign';
import { announce, createLogger, type Logger } from './log';
import { servicesFor, type Services } from './services';
import { createStatsRecorder } from './services/analytics/stats-recorder';
import { openStore } from './store/open';
import { SecretsKeyError } from './store/secret-box';

/** NAMESERVERS changed since the last start: the zones on the previous set move to it. */
async function followNameservers(services: Services, config: Config, log: Logger): Promise<void> {
  const moved = await services.nameservers.follow();
  if (!moved) return;
  const { from, result } = moved;
  log.info({ from, to: config.nameservers, zones: result.moved.length }, 'NAMESERVERS changed: zones on the previous name servers moved to the new ones');
  for (const f of result.failed) log.error({ zone: f.name, error: f.error }, 'moving the zone to the new name servers failed; move it with `nameservers move`');
}

async function main(): Promise<void> {
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`zonedeck: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  let store: Awaited<ReturnType<typeof openStore>>;
  try {
    store = await openStore(config);
  } catch (e) {
    // A wrong SECRETS_KEY (or key file) for this database: say so, no stack trace.
    if (e instanceof SecretsKeyError) {
      process.stderr.write(`zonedeck: SECRETS_KEY: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  for (const file of store.exposed ?? []) log.warn({ file }, 'readable by other users of this machine: DATA_DIR should be 0700 and its files 0600 (chmod failed: another owner?)');
  const services = servicesFor(store, config);
  const clash = await services.zones.catalogClash();
  if (clash) {
    process.stderr.write(`zonedeck: CATALOG_ZONE: ${clash}\n`);
    process.exit(2);
  }

  if ((await store.users.count()) === 0) {
    // The first user administers the install (manages users and teams from the dashboard).
    const { password } = await services.accounts.addUser('admin', undefined, { isAdmin: true, mustChange: true });
    services.firstPassword.keep(password);
    log.warn({ username: 'admin', password, file: services.firstPassword.file }, 'created the first user; this password is shown only once, and kept in the file until admin changes it');
  } else if (services.firstPassword.exists()) {
    // An install from before the dashboard asked: admin still has the generated password, and is asked for their own now.
    const admin = await store.users.byUsername('admin');
    if (admin) await store.users.requirePasswordChange(admin.id);
    log.warn({ username: 'admin', file: services.firstPassword.file }, "admin's first password is still in this file: sign in and change it on the Account page");
  }

  // Single sign-on: the provider is discovered now, in the background; one that is down delays
  // nothing and is asked again at the first click on its button.
  if (config.oidc) {
    const issuer = config.oidc.issuer;
    void services.oidc
      .warmUp()
      .then((ok) => (ok ? log.info({ issuer }, 'single sign-on: provider discovered') : log.warn({ issuer }, 'single sign-on: the provider cannot be reached; its button answers 503 until it can')));
  }

  // The zone history and the audit log are kept HISTORY_DAYS days; a failure is
  // logged, counted and retried with backoff (server/background.ts).
  const pruning = [
    startJob('prune-history', async () => void (await services.changes.prune(config.historyDays)), log, { everyMs: 3_600_000 }),
    startJob('prune-audit', async () => void (await services.audit.prune(config.historyDays)), log, { everyMs: 3_600_000 }),
    // Deleted zones are restorable until their expires_at (HISTORY_DAYS after the deletion).
    startJob('purge-deleted-zones', async () => void (await services.deletedZones.purge()), log, { everyMs: 3_600_000 }),
    // Webhook deliveries (with every attempt) are kept as long as the history.
    startJob('prune-webhook-deliveries', async () => void (await services.webhooks.prune(config.historyDays)), log, { everyMs: 3_600_000 }),
  ];

  // Per-zone query statistics: each node writes its own rows, named for this run.
  const stats = config.statsDays
    ? createStatsRecorder(store, {
        node: services.events.origin.slice(0, 8),
        days: config.statsDays,
        metricsPerZone: config.metricsPerZone,
        onError: (err) => log.error({ err }, 'storing query statistics failed'),
      })
    : null;
  void stats?.prune().catch(() => {});
  // Background writes of the zones, through the same change sets as every other write: the weekly
  // re-sign bump (fresh signatures at the secondaries) and, with secondaries to tell, a new serial
  // when an ALIAS target's addresses change (the DNS thread resolves them and says so).
  const resign = startJob('resign', () => resignSignedZones(store, services.changes), log, { everyMs: RESIGN_EVERY_MS });
  const aliasSerials =
    config.secondaries.length > 0
      ? createAliasSerials(services.changes, {
          onError: (err, zone, retryInMs) => {
            backgroundFailures.inc({ job: 'alias-serial' });
            log.error({ err, job: 'alias-serial', zone, retry_in_s: retryInMs / 1000 }, 'a new serial for changed ALIAS addresses failed; trying again');
          },
        })
      : null;
  const dns = await startDnsThread(
    config,
    services.store,
    services.events,
    log,
    {
      update: (req) => services.updates.apply(req),
      aliasChanged: aliasSerials ? (zoneId) => aliasSerials.changed(zoneId) : undefined,
      // A failure is counted and logged; the next round of the check (or the next zone event) stores it again.
      delegated: (zoneId, delegated) =>
        void services.changes.markDelegated(zoneId, delegated).catch((err: unknown) => {
          backgroundFailures.inc({ job: 'delegation' });
          log.error({ err, zone: zoneId, job: 'delegation' }, 'storing a delegation check failed');
        }),
      // A NOTIFY from a secondary zone's primary: checked at once (on whichever node takes it first).
      notified: (zoneId) =>
        void services.secondaries.notified(zoneId).catch((err: unknown) => {
          log.warn({ err, zone: zoneId }, 'a NOTIFY could not be acted on; the zone is checked on its refresh timer');
        }),
    },
    stats ? (batch) => stats.record(batch) : undefined,
  );
  // After the DNS thread is up, so that the secondaries of zones that move are notified as for any change.
  await followNameservers(services, config, log);
  const drivers = startDrivers(services, config, log);
  const loop = config.overload.loopDelayMs === null ? null : watchLoopDelay(config.overload.loopDelayMs);
  const overload = { admission: new Admission(config.overload), loopLate: loop && (() => loop.late()) };
  const app = buildApp({ services, config, log, dnsProgress: () => dns?.progress() ?? null, dnsPort: () => dns?.port ?? null, overload });
  const http = await startHttp(app.fetch, config);
  // Which Node runs it (npm install brings Node 24 along: README): the operator sees it here.
  // dns_threads: the UDP sockets answering, one per thread (dns/wire/udp-threads.ts), over one index.
  announce(log, { http: http.url, dns: dns?.port ?? null, dns_threads: dns ? config.dnsThreads : 0, node: process.versions.node }, 'listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await stopHttp(http.server);
    loop?.stop();
    for (const job of [...pruning, resign]) job.stop();
    aliasSerials?.close();
    await drivers.stop();
    await dns?.close();
    await stats?.close();
    await store.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * What every node drives in the background, each zone or delivery by one node at a time (a lease in
 * the database): secondaries and catalogs following their primaries, key rollovers, webhook
 * deliveries; and this node's health checks of pool members, whose verdicts the nodes judge together.
 */
function startDrivers(services: Services, config: Config, log: Logger): { stop(): Promise<void> } {
  const node = services.events.origin;
  services.secondaries.start(pullClient, { node, maxRecords: config.maxRecordsPerZone, log });
  services.catalogs.start(pullClient, { node, maxRecords: config.maxRecordsPerZone, log });
  services.dnssec.start({
    propagationS: config.dnssecPropagationS,
    resolver: config.resolver ? parseHostPort(config.resolver) : null,
    secondaries: config.secondaries.length > 0,
    node,
    log,
  });
  services.webhooks.start({ deliver: (d, policy) => deliver(d, policy) }, { node, log });
  // The node that records a member's move tells the webhooks (pool.member.down / up).
  const health = services.healthChecker({
    node: `${os.hostname()}/${node.slice(0, 8)}`,
    probe: (spec) => probe(spec, { allowPrivate: config.health.allowPrivate, sourceAddress: config.health.sourceAddress }),
    log,
    onTransition: (t) => services.webhooks.poolMemberMoved(t),
  });
  health.start();
  services.events.subscribe((change) => {
    if (change.kind === 'zone-changed') health.zoneChanged(change.domain);
  });
  return {
    async stop() {
      services.secondaries.stop();
      services.catalogs.stop();
      services.dnssec.stop();
      health.stop();
      services.webhooks.stop();
      await services.webhooks.idle();
    },
  };
}

main().catch((err) => {
  process.stderr.write(`zonedeck: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
