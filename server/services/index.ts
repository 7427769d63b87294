/** All services over one store, as used by the API, the BFF, the CLI and the DNS server. */
import type { Config, OidcConfig } from '../config';
import type { ReadStore, Store } from '../store/types';
import { Accounts } from './identity/accounts';
import { createAudit } from './identity/audit';
import { Teams } from './identity/teams';
import { createSecondFactors } from './identity/second-factors';
import { createPasskeys } from './identity/passkeys';
import { ZoneEvents } from './changes/events';
import { createIps } from './identity/ips';
import { createUserIps } from './identity/user-ips';
import { createChangeSets } from './changes/change-sets';
import { Secondaries } from './secondary/secondaries';
import { Catalogs } from './secondary/catalogs';
import { createDynamicUpdates } from './changes/dynamic-updates';
import { createRecords, DEFAULT_MAX_RECORDS } from './changes/records';
import { createRrsets } from './changes/rrsets';
import { createTsigKeys } from './identity/tsig-keys';
import { Users } from './identity/users';
import { firstPasswordFile } from './identity/first-password';
import { createZoneFiles } from './zones/zone-files';
import { Zones, type ZoneDefaults } from './zones/zones';
import { createBatches } from './across-zones/batches';
import { RecordSearchService } from './across-zones/record-search';
import { Templates } from './across-zones/templates';
import { Oidc } from './identity/oidc';
import { createSignInSettings } from './identity/sign-in-settings';
import { DnssecRollovers } from './dnssec/rollovers';
import { Pools } from './health/pools';
import { HealthChecker, type CheckerOptions } from './health/checker';
import { createDelegationChecks, type DelegationTuning } from './checks/delegation-check';
import { createDeletedZones } from './zones/deleted-zones';
import { createSessions, type SessionTimes } from './identity/sessions';
import { fixedClock, watchClockSteps } from './clock-steps';
import { createZoneAttributes } from './zones/zone-attributes';
import { createNameserverMoves } from './zones/nameservers-move';
import { createSignInThrottle, type ThrottleOptions } from './identity/sign-in-throttle';
import { DEFAULT_MAX_WEBHOOKS, Webhooks, type WebhookSettings } from './webhooks/webhooks';
import { zoneChangedData } from './webhooks/event-data';

/**
 * The store's writer goes to the change sets alone; the other services get it without the zone
 * writes (`ServiceStore`), and what they hand to the layers above is read-only (`ReadStore`).
 * `delegation`: how the check from outside asks (tests ask their name servers on another port than 53, and keep nothing). */
export function createServices(
  store: Store,
  defaults: ZoneDefaults & { delegation?: DelegationTuning; parentCheckNetworks?: string[]; oidc?: OidcConfig; health?: Config['health']; webhooks?: Partial<WebhookSettings> },
  events = new ZoneEvents(),
) {
  const webhooks = new Webhooks(store, { allowPrivate: false, maxPerUser: DEFAULT_MAX_WEBHOOKS, retryFirstS: 10, ...defaults.webhooks });
  // What webhooks hear of the writes: every change set committed here, and a delegation found or lost.
  const changes = createChangeSets(
    store,
    events,
    { maxRecords: defaults.maxRecords ?? DEFAULT_MAX_RECORDS, aliasResolver: defaults.resolver !== undefined, aliasDeny: defaults.aliasDeny },
    {
      committed: (zone, change) => webhooks.notify('zone.changed', zone.id, zoneChangedData(zone.name, change)),
      delegated: (zone, delegated) => webhooks.notify('delegation.changed', zone.id, { delegated }),
    },
  );
  const audit = createAudit(store);
  const zones = new Zones({ store, events, changes, audit, defaults });
  const accounts = new Accounts(store, defaults.maxTokensPerUser);
  const batches = createBatches(store, changes, zones);
  const reads: ReadStore = store.reads;
  // One instance: its cache of IP pages is emptied by writes through either face.
  const ips = createIps(store);
  return {
    store: reads,
    events,
    audit,
    teams: new Teams(store, audit),
    secondFactors: createSecondFactors(store, audit),
    passkeys: createPasskeys(store, audit),
    accounts,
    firstPassword: firstPasswordFile(defaults.dataDir),
    users: new Users(store, accounts, audit, firstPasswordFile(defaults.dataDir)),
    ips,
    userIps: createUserIps(store, ips, audit),
    changes,
    zones,
    secondaries: new Secondaries(store, changes, zones, (zone, data) => webhooks.notify('secondary.failing', zone.id, data)),
    catalogs: new Catalogs(store, zones),
    dnssec: new DnssecRollovers(store, changes, (zone, data) => webhooks.notify('dnssec.ds_changed', zone.id, data)),
    pools: new Pools(store, changes, { maxPerUser: defaults.health?.maxPoolsPerUser ?? 50, minIntervalS: defaults.health?.minIntervalS ?? 10, allowPrivate: defaults.health?.allowPrivate ?? false }),
    /** This node's health checks of pool members (server/main.ts starts them with the network probe). */
    healthChecker: (opts: CheckerOptions) => new HealthChecker(store, changes, opts),
    deletedZones: createDeletedZones(store, zones.rules, changes, audit, defaults.historyDays),
    records: createRecords(store, changes, zones),
    rrsets: createRrsets(changes, zones, defaults.maxRecords ?? DEFAULT_MAX_RECORDS),
    tsigKeys: createTsigKeys(store, defaults.maxTsigKeysPerUser),
    updates: createDynamicUpdates(store, changes, defaults.rateLimitUpdate ?? null),
    batches,
    templates: new Templates({ store, zones, batches, maxRecords: defaults.maxRecords ?? DEFAULT_MAX_RECORDS }),
    recordSearch: new RecordSearchService(store, batches),
    delegation: createDelegationChecks({ resolver: defaults.resolver, nameservers: defaults.nameservers, insideNetworks: defaults.parentCheckNetworks, ...defaults.delegation }),
    zoneFiles: createZoneFiles(store, changes, { primary: defaults.nameservers[0]!, hostmaster: defaults.hostmaster ?? 'hostmaster.zonedeck.test' }, defaults.maxRecords ?? DEFAULT_MAX_RECORDS),
    oidc: new Oidc(store, accounts, audit, defaults.oidc),
    signInSettings: createSignInSettings(store, audit, defaults.oidc?.name ?? null),
    zoneAttributes: createZoneAttributes(store),
    /** Zones moved from one apex NS set to another (NAMESERVERS changed; `nameservers move`). */
    nameservers: createNameserverMoves(store, reads, changes, defaults.nameservers),
    webhooks,
    /** The dashboard's sessions (the BFF's), with its times, and the clock a test sets (else this process's, watched for steps). */
    sessions: (times?: SessionTimes, now?: () => number) => createSessions(store, accounts, times, now ? fixedClock(now) : watchClockSteps()),
    /** Failed sign-ins counted per user and address, with the BFF's limits and clock. */
    signInThrottle: (opts?: ThrottleOptions, now?: () => number) => createSignInThrottle(store.signInFailures, opts, now),
    /** The sealing of stored secrets (`secrets rotate`): the key in use, and a re-seal under a new one. */
    secrets: { box: store.secrets, reseal: store.resealSecrets?.bind(store) },
    /** Closes the store (the CLI, at the end of a command). */
    close: () => store.close(),
  };
}

export type Services = ReturnType<typeof createServices>;

/** The services as configured: apex NS set from NAMESERVERS, the records-per-zone cap, the catalog zone's name, ALIAS only with a RESOLVER. */
export function servicesFor(
  store: Store,
  config: Pick<Config, 'nameservers' | 'hostmaster' | 'maxRecordsPerZone' | 'catalogZone' | 'resolver'> &
    Partial<
      Pick<Config, 'maxZonesPerUser' | 'maxTokensPerUser' | 'maxTsigKeysPerUser' | 'rateLimitUpdate' | 'aliasDeny' | 'dataDir' | 'historyDays' | 'oidc' | 'health' | 'webhooks' | 'parentCheckNetworks'>
    >,
  events?: ZoneEvents,
): Services {
  return createServices(
    store,
    {
      nameservers: config.nameservers,
      hostmaster: config.hostmaster,
      nsTtl: 3600,
      maxRecords: config.maxRecordsPerZone,
      catalogZone: config.catalogZone,
      resolver: config.resolver,
      maxZonesPerUser: config.maxZonesPerUser,
      maxTokensPerUser: config.maxTokensPerUser,
      maxTsigKeysPerUser: config.maxTsigKeysPerUser,
      rateLimitUpdate: config.rateLimitUpdate,
      aliasDeny: config.aliasDeny,
      parentCheckNetworks: config.parentCheckNetworks,
      dataDir: config.dataDir,
      historyDays: config.historyDays,
      oidc: config.oidc,
      health: config.health,
      webhooks: config.webhooks,
    },
    events,
  );
}
