/**
 * The environment, parsed once into a typed object. A bad value stops the
 * start with a message that names the variable.
 */
import { z } from 'zod';
import path from 'node:path';
import os from 'node:os';
import { normalizeZoneName } from './core/domain-name';
import { parseIpRange } from './core/ip-range';
import ipaddr from 'ipaddr.js';

const port = z
  .string()
  .regex(/^[0-9]{1,5}$/, 'must be a port number from 0 to 65535 (0 picks a free port)')
  .transform(Number)
  .refine((n) => n <= 65535, 'must be a port number from 0 to 65535 (0 picks a free port)');

const hostList = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((h) => h.trim().toLowerCase().replace(/\.$/, ''))
      .filter(Boolean),
  )
  .refine((l) => l.length > 0, 'must list at least one host name');

const hostPort = z.string().regex(/^[^\s:]+:[0-9]{1,5}$|^\[[0-9a-fA-F:]+\]:[0-9]{1,5}$/, 'must be host:port');

/** A secondary to NOTIFY: `host:port` or `[v6]:port`, optionally followed by a TSIG key name to sign with. */
export interface SecondaryConfig {
  host: string;
  port: number;
  key?: string;
}

const SECONDARY = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+)):([0-9]{1,5})(?:\s+(\S+))?$/;

const secondaryList = z.string().transform((text, ctx) => {
  const out: SecondaryConfig[] = [];
  for (const entry of text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const m = SECONDARY.exec(entry);
    if (!m || Number(m[3]) > 65535) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" must be host:port (IPv6 as [2001:db8::53]:53), optionally followed by a space and a TSIG key name` });
      return z.NEVER;
    }
    out.push({ host: m[1] ?? m[2]!, port: Number(m[3]), ...(m[4] ? { key: m[4].toLowerCase().replace(/\.$/, '') } : {}) });
  }
  return out;
});

const positiveMs = z
  .string()
  .regex(/^[0-9]+$/, 'must be a whole number of milliseconds')
  .transform(Number);

const rate = z
  .string()
  .regex(/^(off|[0-9]+(\.[0-9]+)?,[0-9]+)$/, 'must be "off" or "<requests per second>,<burst>", e.g. 20,100')
  .transform((s) => (s === 'off' ? null : { perSecond: Number(s.split(',')[0]), burst: Number(s.split(',')[1]) }));

/** A zone name as the API would store it (IDN to A-labels, no trailing dot), or the rule it breaks. */
const zoneName = z.string().transform((s, ctx) => {
  try {
    return normalizeZoneName(s);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `must be a domain name like catalog.example.net: ${e instanceof Error ? e.message : String(e)}` });
    return z.NEVER;
  }
});

/** The default of DNS_THREADS is the cores, at most this many. */
export const DNS_THREADS_CAP = 8;

const schema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(8080),
  DNS_HOST: z.string().min(1).default('127.0.0.1'),
  DNS_PORT: z.union([z.literal('off'), port]).default(1053),
  // UDP threads answering DNS over the one zone index (dns/wire/udp-threads.ts).
  DNS_THREADS: z
    .string()
    .regex(/^[1-9][0-9]?$/, 'must be a whole number of threads from 1 to 99')
    .transform(Number)
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  TLS_CERT: z.string().optional(),
  TLS_KEY: z.string().optional(),
  NAMESERVERS: hostList.default(['ns1.zonedeck.test', 'ns2.zonedeck.test']),
  HOSTMASTER: z
    .string()
    .min(1)
    .transform((s) => s.toLowerCase().replace(/\.$/, ''))
    .default('hostmaster.zonedeck.test'),
  RESOLVER: hostPort.optional(),
  // Networks besides public addresses where "check from outside" may ask a parent zone's name servers (an internal DNS tree).
  PARENT_CHECK_NETWORKS: z
    .string()
    .default('')
    .refine(
      (s) =>
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
          .every((x) => {
            try {
              return parseIpRange(x) !== undefined;
            } catch {
              return false;
            }
          }),
      'must be networks separated by commas, like 10.53.0.0/16,fd00:53::/32',
    ),
  // What a DNSSEC rollover adds to every TTL it waits for: the time a change takes to reach every server that answers for the zone.
  DNSSEC_PROPAGATION_S: z
    .string()
    .regex(/^[0-9]{1,6}$/, 'must be a whole number of seconds from 0 to 999999')
    .transform(Number)
    .default(3600),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z
    .string()
    .regex(/^[0-9]+$/)
    .transform(Number)
    .default(65536),
  BODY_TIMEOUT_MS: positiveMs.default(10000),
  BULK_BODY_LIMIT_BYTES: z
    .string()
    .regex(/^[0-9]+$/)
    .transform(Number)
    .default(32 * 1024 * 1024),
  // Load shedding of the HTTP faces (http/overload.ts): requests served at once, how many may wait
  // and how long, and the event loop's lag past which new ones are refused. 64 at once keeps a
  // 2-core node's writes batched (group commit) without letting each wait behind hundreds.
  HTTP_MAX_INFLIGHT: z
    .string()
    .regex(/^[1-9][0-9]{0,5}$/, 'must be a whole number of requests from 1 to 999999')
    .transform(Number)
    .default(64),
  HTTP_MAX_QUEUE: z
    .string()
    .regex(/^[0-9]{1,6}$/, 'must be a whole number of requests from 0 (none waits) to 999999')
    .transform(Number)
    .optional(),
  HTTP_QUEUE_WAIT_MS: z
    .string()
    .regex(/^[1-9][0-9]{0,5}$/, 'must be a whole number of milliseconds from 1 to 999999')
    .transform(Number)
    .default(1500),
  HTTP_SHED_LOOP_DELAY_MS: z
    .string()
    .regex(/^(off|[1-9][0-9]{0,5})$/, 'must be "off" or a whole number of milliseconds from 1 to 999999')
    .default('200')
    .transform((s) => (s === 'off' ? null : Number(s))),
  HISTORY_DAYS: z
    .string()
    .regex(/^[1-9][0-9]{0,4}$/, 'must be a whole number of days, 1 or more')
    .transform(Number)
    .default(365),
  MAX_RECORDS_PER_ZONE: z
    .string()
    .regex(/^[1-9][0-9]*$/, 'must be a whole number of 1 or more')
    .transform(Number)
    .default(200_000),
  // A Terraform or octoDNS refresh reads every record of a zone back to back: 1,000 GETs pass.
  RATE_LIMIT_TOKEN: rate.default({ perSecond: 100, burst: 1500 }),
  RATE_LIMIT_ADDRESS: rate.default({ perSecond: 100, burst: 1000 }),
  RATE_LIMIT_UPDATE: rate.default({ perSecond: 20, burst: 100 }),
  ALIAS_DENY: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toLowerCase().replace(/^\./, '').replace(/\.$/, ''))
        .filter(Boolean),
    )
    .refine((l) => l.every((x) => /^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/.test(x)), 'must be comma-separated domain suffixes, like corp.example.com,internal.example')
    .default([]),
  //Identical responses a second per client prefix over UDP; off by default, as in Knot and BIND.
  DNS_RATE_LIMIT: z
    .string()
    .regex(/^(off|[1-9][0-9]{0,6})$/, 'must be "off" or a whole number of responses per second, like 20')
    .default('off')
    .transform((s) => (s === 'off' ? null : Number(s))),
  DNS_RATE_LIMIT_SLIP: z
    .string()
    .regex(/^([0-9]|10)$/, 'must be a whole number from 0 (drop every limited response) to 10')
    .transform(Number)
    .default(2),
  ALIAS_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
  // Health checks of pool members: whether they may reach private, loopback and link-local addresses,
  // their shortest interval, how many pools one user may have, and the address they are made from.
  HEALTH_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
  HEALTH_MIN_INTERVAL_S: z
    .string()
    .regex(/^[1-9][0-9]{0,3}$/, 'must be a whole number of seconds from 1 to 3600')
    .transform(Number)
    .refine((n) => n <= 3600, 'must be a whole number of seconds from 1 to 3600')
    .default(10),
  MAX_POOLS_PER_USER: z
    .string()
    .regex(/^[0-9]{1,6}$/, 'must be a whole number (0: no pools)')
    .transform(Number)
    .default(50),
  HEALTH_SOURCE_ADDRESS: z
    .string()
    .refine((v) => ipaddr.isValid(v), 'must be an IP address of this machine')
    .optional(),
  REQUIRE_2FA: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
  MAX_ZONES_PER_USER: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number of 1 or more')
    .transform(Number)
    .default(1000),
  MAX_TOKENS_PER_USER: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number of 1 or more')
    .transform(Number)
    .default(100),
  MAX_TSIG_KEYS_PER_USER: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number of 1 or more')
    .transform(Number)
    .default(100),
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
  MAX_WEBHOOKS_PER_USER: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number of 1 or more')
    .transform(Number)
    .default(20),
  WEBHOOK_RETRY_FIRST_S: z
    .string()
    .regex(/^[1-9][0-9]{0,4}$/, 'must be a whole number of seconds from 1 to 99999')
    .transform(Number)
    .default(10),
  AXFR_ALLOW: z.string().default('127.0.0.0/8,::1/128'),
  SECONDARIES: secondaryList.default([]),
  NOTIFY_TSIG: z
    .string()
    .regex(/^(hmac-[a-z0-9]+:)?[A-Za-z0-9._-]+:[A-Za-z0-9+/]+={0,2}$/i, 'must be algorithm:name:secret (base64), as dig -y takes it')
    .optional(),
  CATALOG_ZONE: zoneName.optional(),
  PUBLIC_URL: z
    .string()
    .refine((s) => {
      try {
        const u = new URL(s.trim());
        return (u.protocol === 'https:' || u.protocol === 'http:') && (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash && !u.username && !u.password;
      } catch {
        return false;
      }
    }, 'must be the origin users open the dashboard at, like https://dns.example.com (no path)')
    .transform((s) => new URL(s.trim()).origin)
    .optional(),
  // Proxies whose X-Forwarded-For/Proto/Host are believed (addresses or networks).
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const out: { address: string; cidr: number }[] = [];
      for (const entry of text
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)) {
        try {
          const r = parseIpRange(entry);
          out.push({ address: r.address, cidr: r.cidr });
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: `"${entry.slice(0, 64)}" must be an address or a network like 10.0.0.0/8: ${err instanceof Error ? err.message : String(err)}` });
          return z.NEVER;
        }
      }
      return out;
    }),
  // Host names the dashboard may be opened at besides IP literals and localhost (without PUBLIC_URL).
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((h) => h.trim().toLowerCase().replace(/\.$/, ''))
        .filter(Boolean),
    )
    .refine((l) => l.every((h) => /^(\*\.)?[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/.test(h)), 'must be host names separated by commas, like dns.example.com,*.example.net'),
  //Hourly rows kept this many days (minute rows 48 h); off: no counting at all.
  STATS_DAYS: z
    .string()
    .regex(/^(off|[1-9][0-9]{0,3})$/, 'must be "off" or a whole number of days from 1 to 9999')
    .default('90')
    .transform((s) => (s === 'off' ? null : Number(s))),
  STATS_FLUSH_MS: z
    .string()
    .regex(/^[1-9][0-9]{2,5}$/, 'must be a whole number of milliseconds from 100 to 999999')
    .transform(Number)
    .default(5000),
  METRICS_PER_ZONE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
  SECRETS_KEY: z
    .string()
    .refine((s) => /^[A-Za-z0-9+/]+={0,2}$/.test(s.trim()) && Buffer.from(s.trim(), 'base64').length === 32, 'must be the base64 of 32 octets (openssl rand -base64 32)')
    .optional(),
  //Single sign-on with OpenID Connect; the three go together.
  OIDC_ISSUER: z
    .string()
    .max(2048)
    .refine(oidcIssuer, 'must be the issuer URL of the OpenID provider, https:// (http:// only for 127.0.0.1 or localhost), like https://sso.example.com/realms/main')
    // As given, trailing slash included: discovery compares it with the provider's own `issuer` exactly.
    .transform((s) => s.trim())
    .optional(),
  OIDC_CLIENT_ID: z.string().max(255, 'must be at most 255 characters').optional(),
  OIDC_CLIENT_SECRET: z.string().max(1024, 'must be at most 1024 characters').optional(),
  OIDC_AUTO_CREATE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
  OIDC_SKIP_2FA: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .transform((v) => v === 'true')
    .default(false),
  OIDC_NAME: z
    .string()
    .max(64, 'must be at most 64 characters')
    .refine((s) => s.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(s), 'must be a short label without control characters')
    .default('Single sign-on'),
});

/** An OpenID issuer: https, or http on the loopback host only (a provider on the same machine, tests). */
function oidcIssuer(s: string): boolean {
  try {
    const u = new URL(s.trim());
    if (u.search || u.hash || u.username || u.password) return false;
    return u.protocol === 'https:' || (u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname));
  } catch {
    return false;
  }
}

export type Config = {
  host: string;
  port: number;
  dnsHost: string;
  /** null when DNS is disabled (`DNS_PORT=off`). */
  dnsPort: number | null;
  /**
   * DNS_THREADS: UDP threads answering DNS (default: the cores, at most DNS_THREADS_CAP), each with
   * its own socket on the port, over the one zone index (docs/architecture.md "DNS threads").
   */
  dnsThreads: number;
  dataDir: string;
  /** The SQLite file, or ':memory:'. */
  sqlitePath: string;
  databaseUrl?: string;
  tls?: { cert: string; key: string };
  nameservers: string[];
  hostmaster: string;
  resolver?: string;
  /** PARENT_CHECK_NETWORKS: where the check from outside may ask a parent's servers besides public addresses. */
  parentCheckNetworks: string[];
  /** DNSSEC_PROPAGATION_S: seconds every rollover wait adds to the TTLs it waits for. */
  dnssecPropagationS: number;
  logLevel: string;
  bodyLimitBytes: number;
  bodyTimeoutMs: number;
  /** Body limit of bulk writes: RRset PATCH and zone imports. */
  bulkBodyLimitBytes: number;
  /**
   * Load shedding (HTTP_MAX_INFLIGHT, HTTP_MAX_QUEUE: four times the first by default,
   * HTTP_QUEUE_WAIT_MS, HTTP_SHED_LOOP_DELAY_MS: null when off).
   */
  overload: { maxInflight: number; maxQueue: number; queueWaitMs: number; loopDelayMs: number | null };
  /** Days a zone's change sets are kept. */
  historyDays: number;
  maxRecordsPerZone: number;
  /** Per-user limits: zones, API tokens (not the dashboard's session tokens), TSIG keys. */
  maxZonesPerUser: number;
  maxTokensPerUser: number;
  maxTsigKeysPerUser: number;
  /** API rate limits (null: off). */
  rateLimitToken: { perSecond: number; burst: number } | null;
  rateLimitAddress: { perSecond: number; burst: number } | null;
  /** Suffixes no ALIAS target may lie under (ALIAS_DENY), besides the special-use names. */
  aliasDeny: string[];
  /** Whether ALIAS answers may carry private, loopback, link-local and ULA addresses (ALIAS_ALLOW_PRIVATE). */
  aliasAllowPrivate: boolean;
  /** Webhooks: WEBHOOK_ALLOW_PRIVATE (private, loopback, link-local … addresses may be posted to), MAX_WEBHOOKS_PER_USER, WEBHOOK_RETRY_FIRST_S (the first retry's wait, doubled after). */
  webhooks: { allowPrivate: boolean; maxPerUser: number; retryFirstS: number };
  /** Pools' health checks: HEALTH_ALLOW_PRIVATE, HEALTH_MIN_INTERVAL_S, MAX_POOLS_PER_USER, HEALTH_SOURCE_ADDRESS. */
  health: { allowPrivate: boolean; minIntervalS: number; maxPoolsPerUser: number; sourceAddress?: string };
  /** REQUIRE_2FA: a user without a second factor must enrol one before the dashboard does anything else. */
  requireTwoFactor: boolean;
  /** DNS_RATE_LIMIT: response rate limiting (responses a second per client prefix, and the slip), or null when off. */
  dnsRateLimit: { rate: number; slip: number } | null;
  /** RFC 2136 updates per second and burst, per TSIG key and per zone (null: off). */
  rateLimitUpdate: { perSecond: number; burst: number } | null;
  axfrAllow: string[];
  /** NOTIFY targets, each with the TSIG key to sign with when one is named (NOTIFY_TSIG's). */
  secondaries: SecondaryConfig[];
  /** NOTIFY_TSIG (`alg:name:secret`): the service's own key, which signs NOTIFY and opens transfers; never a tenant's. */
  notifyTsig?: string;
  /** The catalog zone (RFC 9432) listing every hosted zone; unset: none is published. */
  catalogZone?: string;
  /** TRUST_PROXY: the proxies whose forwarding headers say who the client is and at which site. */
  trustProxy: { address: string; cidr: number }[];
  /** ALLOWED_HOSTS: names the dashboard may be opened at when PUBLIC_URL is unset (IP literals and localhost always). */
  allowedHosts: string[];
  /** PUBLIC_URL's origin: what browsers see (behind a TLS-terminating proxy too); unset: the request's own. */
  publicOrigin?: string;
  /** STATS_DAYS: days hourly query statistics are kept; null (`off`): the DNS thread counts nothing. */
  statsDays: number | null;
  /** STATS_FLUSH_MS: how often the DNS thread hands its counts to the main thread, which stores them. */
  statsFlushMs: number;
  /** METRICS_PER_ZONE: per-zone series in /metrics (off by default: one series per zone and rcode). */
  metricsPerZone: boolean;
  /** SECRETS_KEY (base64, 32 octets): seals TSIG secrets and DNSSEC private keys; unset: the key file beside the SQLite database. */
  secretsKey?: string;
  /** Single sign-on (OIDC_*): unset when OIDC_ISSUER is not set. */
  oidc?: OidcConfig;
};

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_AUTO_CREATE: an identity that matches no user gets a new user. */
  autoCreate: boolean;
  /** OIDC_NAME: the sign-in button's label. */
  name: string;
  /**
   * OIDC_SKIP_2FA: the provider's sign-in stands for zonedeck's second factor too (no TOTP or
   * passkey asked after it, REQUIRE_2FA does not hold its sessions). Off by default.
   */
  skipSecondFactor: boolean;
}

export class ConfigError extends Error {}

/**
 * Reads the `.env` file in the directory the command runs in (npm runs `start` and `cli` beside
 * package.json) into the environment, when there is one; a variable already set wins over the file.
 * Node's own `--env-file-if-exists` would do the same but print "not found" on every start without one.
 */
export function loadDotEnv(file = '.env'): void {
  try {
    process.loadEnvFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfigError(`${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const notifyKeyName = e.NOTIFY_TSIG ? e.NOTIFY_TSIG.split(':').at(-2)!.toLowerCase().replace(/\.$/, '') : undefined;
  const foreignKey = e.SECONDARIES.find((s) => s.key !== undefined && s.key !== notifyKeyName);
  if (foreignKey) {
    throw new ConfigError(
      `invalid configuration:\n  SECONDARIES: ${foreignKey.host}:${foreignKey.port} names the key ${foreignKey.key}, but NOTIFY is signed only with the service's own key, NOTIFY_TSIG (${notifyKeyName ?? 'unset'}): set NOTIFY_TSIG=alg:${foreignKey.key}:secret, or name its key`,
    );
  }
  if (e.DATABASE_URL && !e.SECRETS_KEY) {
    throw new ConfigError(
      'invalid configuration:\n  SECRETS_KEY must be set with DATABASE_URL: every node seals and opens the stored secrets with the same key (make one with openssl rand -base64 32)',
    );
  }
  if (Boolean(e.TLS_CERT) !== Boolean(e.TLS_KEY)) {
    throw new ConfigError('invalid configuration:\n  TLS_CERT and TLS_KEY must be set together');
  }
  const oidcSet = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET].some((v) => v !== undefined);
  if (oidcSet) {
    const missing = (['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const).filter((k) => e[k] === undefined);
    if (missing.length) {
      throw new ConfigError(`invalid configuration:\n${missing.map((k) => `  ${k}: must be set: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together`).join('\n')}`);
    }
  }
  const list = (s: string) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  return {
    host: e.HOST,
    port: e.PORT,
    dnsHost: e.DNS_HOST,
    dnsPort: e.DNS_PORT === 'off' ? null : e.DNS_PORT,
    dnsThreads: e.DNS_THREADS ?? Math.min(os.availableParallelism(), DNS_THREADS_CAP),
    dataDir: e.DATA_DIR,
    sqlitePath: e.DATA_DIR === ':memory:' ? ':memory:' : path.join(e.DATA_DIR, 'zonedeck.db'),
    databaseUrl: e.DATABASE_URL,
    tls: e.TLS_CERT && e.TLS_KEY ? { cert: e.TLS_CERT, key: e.TLS_KEY } : undefined,
    nameservers: e.NAMESERVERS,
    hostmaster: e.HOSTMASTER,
    resolver: e.RESOLVER,
    parentCheckNetworks: list(e.PARENT_CHECK_NETWORKS),
    dnssecPropagationS: e.DNSSEC_PROPAGATION_S,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    bodyTimeoutMs: e.BODY_TIMEOUT_MS,
    bulkBodyLimitBytes: e.BULK_BODY_LIMIT_BYTES,
    overload: { maxInflight: e.HTTP_MAX_INFLIGHT, maxQueue: e.HTTP_MAX_QUEUE ?? 4 * e.HTTP_MAX_INFLIGHT, queueWaitMs: e.HTTP_QUEUE_WAIT_MS, loopDelayMs: e.HTTP_SHED_LOOP_DELAY_MS },
    historyDays: e.HISTORY_DAYS,
    maxRecordsPerZone: e.MAX_RECORDS_PER_ZONE,
    maxZonesPerUser: e.MAX_ZONES_PER_USER,
    maxTokensPerUser: e.MAX_TOKENS_PER_USER,
    maxTsigKeysPerUser: e.MAX_TSIG_KEYS_PER_USER,
    rateLimitToken: e.RATE_LIMIT_TOKEN,
    rateLimitAddress: e.RATE_LIMIT_ADDRESS,
    rateLimitUpdate: e.RATE_LIMIT_UPDATE,
    aliasDeny: e.ALIAS_DENY,
    aliasAllowPrivate: e.ALIAS_ALLOW_PRIVATE,
    requireTwoFactor: e.REQUIRE_2FA,
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE, maxPerUser: e.MAX_WEBHOOKS_PER_USER, retryFirstS: e.WEBHOOK_RETRY_FIRST_S },
    health: {
      allowPrivate: e.HEALTH_ALLOW_PRIVATE,
      minIntervalS: e.HEALTH_MIN_INTERVAL_S,
      maxPoolsPerUser: e.MAX_POOLS_PER_USER,
      ...(e.HEALTH_SOURCE_ADDRESS ? { sourceAddress: e.HEALTH_SOURCE_ADDRESS } : {}),
    },
    dnsRateLimit: e.DNS_RATE_LIMIT === null ? null : { rate: e.DNS_RATE_LIMIT, slip: e.DNS_RATE_LIMIT_SLIP },
    axfrAllow: list(e.AXFR_ALLOW),
    secondaries: e.SECONDARIES,
    notifyTsig: e.NOTIFY_TSIG,
    catalogZone: e.CATALOG_ZONE,
    publicOrigin: e.PUBLIC_URL,
    trustProxy: e.TRUST_PROXY,
    allowedHosts: e.ALLOWED_HOSTS,
    secretsKey: e.SECRETS_KEY?.trim(),
    statsDays: e.STATS_DAYS,
    statsFlushMs: e.STATS_FLUSH_MS,
    metricsPerZone: e.METRICS_PER_ZONE,
    oidc: oidcSet
      ? { issuer: e.OIDC_ISSUER!, clientId: e.OIDC_CLIENT_ID!, clientSecret: e.OIDC_CLIENT_SECRET!, autoCreate: e.OIDC_AUTO_CREATE, name: e.OIDC_NAME.trim(), skipSecondFactor: e.OIDC_SKIP_2FA }
      : undefined,
  };
}
