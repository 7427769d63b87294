/**
 * Starts the authoritative DNS server: the zone index (loaded from the store and kept
 * current from zone events), the query handler, UDP and TCP on the same port, NOTIFY to
 * secondaries and the delegation check. `port` is the real port when 0 was asked for.
 */
import type dgram from 'node:dgram';
import path from 'node:path';
import type { Config } from '../config';
import { startJob } from '../background';
import type { Logger } from '../log';
import { SNAPSHOT_FAULT, snapshotFaults } from '../counters';
import type { UpdateRequest } from '../services/changes/dynamic-updates';
import type { ZoneEvents } from '../services/changes/events';
import type { ReadStore } from '../store/types';
import { aclAllows, parseAcl } from './transfer/acl';
import { AliasResolver } from './alias/alias';
import { createDelegationCheck } from './checks/delegation';
import { CookieJar } from './wire/cookies';
import { createHandler, type Handler } from './wire/handler';
import { ResponseRateLimiter } from './wire/rrl';
import { QueryStats } from './analytics/query-stats';
import { TokenBuckets } from '../services/buckets';
import { Keyring, SERVICE_KEY_USER, type DnsKey, type KeyLookup } from './tsig/keyring';
import { parseTsigArgument } from './transfer/transfer-signer';
import type { TsigKey } from './tsig/tsig';
import { Notifier, parseHostPort } from './transfer/notify';
import { zoneNotifyTargets } from './transfer/zone-transfers';
import { listenTcp, type TcpListener } from './wire/tcp';
import { listenUdp } from './wire/udp';
import { listenUdpThreads, type UdpThreadCounts } from './wire/udp-threads';
import { SNAPSHOT_FILE } from './index/index-snapshot';
import { ZoneIndex } from './index/zone-index';
import type { LoadProgress } from './sync/sync-deps';
import { syncZones, type ZoneSync } from './sync/zone-sync';

export type DnsConfig = Pick<Config, 'dnsHost' | 'dnsPort' | 'nameservers' | 'hostmaster' | 'axfrAllow' | 'secondaries' | 'resolver' | 'catalogZone'> &
  Partial<Pick<Config, 'aliasAllowPrivate' | 'notifyTsig' | 'dnsRateLimit' | 'secretsKey' | 'rateLimitUpdate' | 'statsDays' | 'dataDir' | 'dnsThreads'>>;

/** The keyring with the service's key beside the tenants': it wins its name, and may transfer every zone (SERVICE_KEY_USER). */
function withServiceKey(keys: Keyring, service: TsigKey): KeyLookup {
  const key: DnsKey = { ...service, userId: SERVICE_KEY_USER, scope: {} };
  return {
    get: (name) => (name === key.name ? key : keys.get(name)),
    fresh: async (name) => (name === key.name ? key : keys.fresh(name)),
  };
}

export interface DnsServer {
  port: number;
  index: ZoneIndex;
  handler: Handler;
  sync: ZoneSync;
  /** Zones loaded of all hosted at start (both equal once loaded). */
  progress(): LoadProgress;
  /** Per-zone query counts (STATS_DAYS), for the caller to hand on; null when off. */
  stats: QueryStats | null;
  /** What each UDP thread counted (DNS_THREADS > 1; empty with one socket). */
  udpThreads(): UdpThreadCounts[];
  /** Stops one UDP thread as a fault would; it is started again (tests). */
  failUdpThread(thread: number): Promise<void>;
  close(): Promise<void>;
}

/** How often every zone's delegation is checked again (RFC-free policy: parents change slowly). */
const DELEGATION_INTERVAL_MS = 5 * 60_000;
/**
 * How long the start waits for every zone before opening the port: a small install answers
 * everything from its first query; a big one starts answering the zones already loaded.
 */
const LOAD_WAIT_MS = 1000;

/** The UDP side: one socket in this thread, or DNS_THREADS threads' sockets (wire/udp-threads.ts). */
interface UdpListener {
  port: number;
  /** Per UDP thread; empty with one socket in this thread. */
  counts(): UdpThreadCounts[];
  fail?(thread: number): Promise<void>;
  close(): Promise<void>;
}

async function listenUdpOn(host: string, port: number, threads: number, handler: Handler, onError: (e: unknown) => void): Promise<UdpListener> {
  if (threads > 1) return listenUdpThreads(host, port, threads, handler.udp, onError);
  const socket: dgram.Socket = await listenUdp(host, port, handler.udp, onError);
  return { port: socket.address().port, counts: () => [], close: () => new Promise<void>((resolve) => socket.close(() => resolve())) };
}

/** Binds UDP first, then TCP on the same port; with port 0, retries if TCP's twin is taken. */
async function bindBoth(host: string, port: number, threads: number, handler: Handler, onError: (e: unknown) => void): Promise<{ udp: UdpListener; tcp: TcpListener; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const udp = await listenUdpOn(host, port, threads, handler, onError);
    try {
      const tcp = await listenTcp(host, udp.port, handler.tcp);
      return { udp, tcp, port: udp.port };
    } catch (err) {
      await udp.close();
      if (port !== 0 || attempt >= 10) throw err;
    }
  }
}

/** Runs a parser of one setting; a failure names the variable, so the start stops with a clear message. */
function named<T>(variable: string, parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new Error(`${variable}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * What the DNS server asks of the main thread, whose services do every write: `update` applies a
 * verified RFC 2136 update (without it UPDATE answers NOTIMP); `aliasChanged` says a zone's ALIAS
 * addresses changed, for a new serial that secondaries transfer (services/alias-serials.ts).
 */
export interface DnsWrites {
  update?: (req: UpdateRequest) => Promise<number>;
  aliasChanged?: (zoneId: number) => void;
  /** The delegation check found a zone's `delegated` flag changed (dns/delegation.ts). */
  delegated?: (zoneId: number, delegated: boolean) => void;
  /** A NOTIFY for a secondary zone from one of its primaries (signed when the zone has a key): check it now. */
  notified?: (zoneId: number) => void;
  /** Start-up progress, as zones load (see DnsServer.progress). */
  loading?: (progress: LoadProgress) => void;
}

/** The DNS index's start-up snapshot, beside the database (none for a database in memory). */
export function snapshotPath(dataDir: string | undefined): string | undefined {
  return dataDir && dataDir !== ':memory:' ? path.join(dataDir, SNAPSHOT_FILE) : undefined;
}

/** Starts the server, or returns null when DNS is disabled (`DNS_PORT=off`). */
export async function startDns(config: DnsConfig, store: ReadStore, events: ZoneEvents, log: Logger, writes: DnsWrites = {}): Promise<DnsServer | null> {
  const { update } = writes;
  if (config.dnsPort === null) return null;
  const onError = (err: unknown) => log.warn({ err }, 'dns error');
  const acl = named('AXFR_ALLOW', () => parseAcl(config.axfrAllow));
  // TSIG keys are loaded before the first answer, then followed (keyring.ts).
  const keys = await new Keyring(store, onError).start();
  // NOTIFY_TSIG: the service's own key signs NOTIFY to SECONDARIES and opens transfers of every zone; a tenant's key signs only its own zone's.
  const serviceKey = config.notifyTsig ? parseTsigArgument(config.notifyTsig) : undefined;
  const notifier = new Notifier(config.secondaries, { serviceKey, onError });
  const delegation = config.resolver ? createDelegationCheck(store, { resolver: config.resolver, nameservers: config.nameservers, onError, changed: writes.delegated }) : null;
  const index = new ZoneIndex();
  const aliases = new AliasResolver({
    resolver: config.resolver ? named('RESOLVER', () => parseHostPort(config.resolver!)) : null,
    isCurrent: (zone) => index.get(zone.name) === zone,
    onFailure: (target, type, reason, serving) => log.warn({ target, type, reason, serving }, 'ALIAS target lookup failed'),
    // With secondaries to tell, new ALIAS addresses get a new serial (and so a NOTIFY and a transfer).
    onChange: (zone) => writes.aliasChanged?.(zone.id),
    allowPrivate: config.aliasAllowPrivate,
  });
  let progress: LoadProgress = { loaded: 0, total: 0 };
  const sync = await syncZones({
    store,
    events,
    index,
    identity: { primary: config.nameservers[0]!, hostmaster: config.hostmaster, aliases },
    hooks: {
      // SECONDARIES, and the zone's own also_notify signed with its key (a tenant's key signs its own zone's NOTIFY only).
      serialChanged: (zone) => notifier.notify(zone.soa, zoneNotifyTargets(zone.domain, keys, onError)),
      zoneAdded: (domain) => void delegation?.check(domain.id).catch(onError),
      loading: (p) => {
        progress = p;
        writes.loading?.(p);
      },
      snapshotRefreshed: ({ kept, read, written }) => written && log.info({ kept, read }, 'zone index snapshot refreshed'),
      snapshotFault: (fault, message) => {
        snapshotFaults[SNAPSHOT_FAULT[fault]]! += 1;
        log.warn({ fault, reason: message }, 'zone index snapshot fault');
      },
      onError,
    },
    catalog: config.catalogZone,
    snapshot: snapshotPath(config.dataDir),
  });
  void sync.snapshotWritten.then(() => {
    const { restored, read, fault, written, ms } = sync.startup;
    log.info({ restored, read, written, ms, snapshot: fault ?? 'ok' }, 'zone index loaded');
  });
  await Promise.race([sync.loaded, new Promise((r) => setTimeout(r, LOAD_WAIT_MS).unref())]);
  const stats = config.statsDays ? new QueryStats() : null;
  const updateBuckets = config.rateLimitUpdate ? new TokenBuckets(config.rateLimitUpdate) : null;
  const handler = createHandler(index, {
    transferAllowed: (a) => aclAllows(acl, a),
    keys: serviceKey ? withServiceKey(keys, serviceKey) : keys,
    update,
    history: { since: (id, serial) => store.changes.from(id, serial), entries: (id) => store.changes.entries(id) },
    onTransfer: (info) => log.info(info, 'zone transfer'),
    onError,
    // RFC 9018: the same secret on every node (from SECRETS_KEY), so a cookie from one is good on all.
    cookies: new CookieJar(CookieJar.secretFrom(config.secretsKey)),
    rrl: config.dnsRateLimit ? new ResponseRateLimiter(config.dnsRateLimit) : undefined,
    updateAllowed: updateBuckets ? (key) => updateBuckets.take(key) === 0 : undefined,
    stats: stats ?? undefined,
    notified: writes.notified,
  });
  // UDP threads share the port by SO_REUSEPORT, which Node's dgram has from 22.12 (engines asks for it).
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  const threads = major > 22 || (major === 22 && minor >= 12) ? (config.dnsThreads ?? 1) : 1;
  const { udp, tcp, port } = await bindBoth(config.dnsHost, config.dnsPort, threads, handler, onError);

  // Background jobs: failures logged with the zone, counted in /metrics, retried with backoff (server/background.ts).
  const delegationJob = delegation ? startJob('delegation', async () => void (await delegation.checkAll()), log, { everyMs: DELEGATION_INTERVAL_MS }) : null;

  return {
    port,
    index,
    handler,
    sync,
    progress: () => progress,
    stats,
    udpThreads: () => udp.counts(),
    failUdpThread: (thread) => udp.fail?.(thread) ?? Promise.resolve(),
    async close() {
      delegationJob?.stop();
      sync.stop();
      keys.stop();
      aliases.close();
      notifier.close();
      await udp.close();
      await tcp.close();
    },
  };
}
