/**
 * Liveness (`/healthz`), readiness (`/readyz`: the store answers, and which schema it has: the
 * last migration run, so an upgrade can be watched node by node) and Prometheus `/metrics`.
 * While the DNS thread loads the zones at start, `/readyz` is 503 "loading n of m zones".
 * `/readyz` also says "degraded" (still 200: this node answers correctly) while a signed zone's
 * signatures at the secondaries are within 3 days of expiring — the weekly re-sign has been
 * failing for days (server/background.ts logs each failure), and while SQLite's writes find the
 * disk full (reads and DNS go on).
 */
import { Hono } from 'hono';
import type { ReadStore } from '../store/types';
import { registry, signaturesExpiring } from '../metrics';

const DAY = 86_400_000;
/**
 * A secondary serves the signatures of its last transfer, which follows each serial change; they
 * have at least 13 days left then (dns/dnssec/sign.ts: 14-day validity, renewed daily), and
 * the weekly re-sign gives them a new serial after 7.
 */
export const SECONDARY_SIGNATURES_MS = 13 * DAY;
export const WARN_BEFORE_MS = 3 * DAY;
/** Most zones a degraded answer lists by name (the count is always whole). */
const LISTED = 20;
const CHECK_EVERY_MS = 60_000;

interface Expiring {
  zone: string;
  signatures_expire_at: string;
}

/** Signed zones whose signatures at the secondaries expire within WARN_BEFORE_MS of `now`. */
export async function expiringSignatures(store: ReadStore, now = Date.now()): Promise<Expiring[]> {
  const out: Expiring[] = [];
  for (const d of await store.domains.all()) {
    if (!d.dnssec_enabled) continue;
    const expires = Date.parse(d.updated_at) + SECONDARY_SIGNATURES_MS;
    if (expires - now <= WARN_BEFORE_MS) out.push({ zone: d.name, signatures_expire_at: new Date(expires).toISOString() });
  }
  return out.sort((a, b) => a.signatures_expire_at.localeCompare(b.signatures_expire_at));
}

export interface HealthOptions {
  now?: () => number;
  /** The DNS thread's start-up progress: zones loaded of all hosted (absent: no DNS). */
  dnsProgress?: () => { loaded: number; total: number } | null;
}

export function healthApp(store: ReadStore, { now = Date.now, dnsProgress }: HealthOptions = {}) {
  let checked: { at: number; zones: Expiring[] } | undefined;
  const expiring = async () => {
    if (!checked || now() - checked.at >= CHECK_EVERY_MS) {
      checked = { at: now(), zones: await expiringSignatures(store, now()) };
      signaturesExpiring.set(checked.zones.length);
    }
    return checked.zones;
  };
  return new Hono()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      let ready;
      try {
        await store.ping();
        ready = { schema_version: await store.schemaVersion(), zones: await expiring() };
      } catch {
        return c.json({ status: 'unavailable', reason: 'the database does not answer' }, 503);
      }
      // Zones still loading at start-up: those not loaded answer SERVFAIL, so not ready yet.
      const dns = dnsProgress?.();
      if (dns && dns.loaded < dns.total) {
        return c.json({ status: 'loading', reason: `loading ${dns.loaded} of ${dns.total} zones`, schema_version: ready.schema_version, zones_loaded: dns.loaded, zones_total: dns.total }, 503);
      }
      const diskFull = store.diskFullSince?.() ?? null;
      if (ready.zones.length === 0 && !diskFull) return c.json({ status: 'ready', schema_version: ready.schema_version });
      const reasons = [
        ...(diskFull ? [`the disk under the database is full (since ${diskFull}): writes answer 507 until there is space; reads and DNS go on`] : []),
        ...(ready.zones.length > 0
          ? [`signatures at the secondaries expire within ${WARN_BEFORE_MS / DAY} days for ${ready.zones.length} signed zone(s): re-signing has been failing (see the log, job "resign")`]
          : []),
      ];
      return c.json({
        status: 'degraded',
        schema_version: ready.schema_version,
        reason: reasons.join('; '),
        ...(diskFull ? { disk_full_since: diskFull } : {}),
        ...(ready.zones.length > 0 ? { expiring_signatures: ready.zones.slice(0, LISTED) } : {}),
      });
    })
    .get('/metrics', async (c) => {
      await expiring().catch(() => {});
      return c.body(await registry.metrics(), 200, { 'content-type': registry.contentType });
    });
}
