/** All services over one store, as used by the API, the BFF, the CLI and the DNS server. */
import type { Config } from '../config';
import type { Store } from '../store/types';
import { createAccounts } from './accounts';
import { ZoneEvents } from './events';
import { createIps } from './ips';
import { createRecords } from './records';
import { createTsigKeys } from './tsig-keys';
import { createZones, type ZoneDefaults } from './zones';

export function createServices(store: Store, defaults: ZoneDefaults, events = new ZoneEvents()) {
  const zones = createZones(store, events, defaults);
  return {
    store,
    events,
    accounts: createAccounts(store),
    ips: createIps(store),
    zones,
    records: createRecords(store, events, zones, defaults.maxRecords),
    tsigKeys: createTsigKeys(store),
  };
}

export type Services = ReturnType<typeof createServices>;

/** The services as configured: apex NS set from NAMESERVERS, the records-per-zone cap. */
export function servicesFor(store: Store, config: Pick<Config, 'nameservers' | 'maxRecordsPerZone'>, events?: ZoneEvents): Services {
  return createServices(store, { nameservers: config.nameservers, nsTtl: 3600, maxRecords: config.maxRecordsPerZone }, events);
}
