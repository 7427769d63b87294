/**
 * A client's pool judged and completed: every field checked with the field named as the client
 * sent it (`members.1.address`, `check.interval_s`), defaults filled in, addresses in canonical
 * form. A change of a pool is judged as the whole pool it makes (the fields it leaves keep theirs).
 */
import { RuleError } from '../../core/errors';
import { canonicalIpv4, canonicalIpv6, isPublicAddress } from '../../core/ip-range';
import { normalizeRecordName, normalizeTargetName } from '../../core/domain-name';
import { CHECK_KINDS, DEFAULT_CHECK, defaultPort, POOL_FALLBACKS, POOL_LIMITS, POOL_POLICIES, POOL_TYPES, type Pool, type PoolCheck, type PoolMember } from '../../core/pools';
import { FieldCheck } from '../changes/rule-fields';

export interface PoolInput {
  name?: string;
  type?: string;
  ttl?: number;
  policy?: string;
  fallback?: string;
  members?: { address?: string; priority?: number; weight?: number }[];
  check?: Partial<Omit<PoolCheck, 'expect_status'>> & { expect_status?: number[] };
}

export interface PoolBounds {
  /** HEALTH_MIN_INTERVAL_S. */
  minIntervalS: number;
  /** HEALTH_ALLOW_PRIVATE: members at private, loopback or link-local addresses may be checked. */
  allowPrivate: boolean;
}

const whole = (v: unknown, lo: number, hi: number): boolean => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

function oneOf<T extends string>(check: FieldCheck, field: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  check.fail(field, `must be one of ${allowed.join(', ')}`);
  return fallback;
}

function number(check: FieldCheck, field: string, value: unknown, [lo, hi]: readonly [number, number], fallback: number): number {
  if (value === undefined) return fallback;
  if (whole(value, lo, hi)) return value as number;
  check.fail(field, `must be a whole number from ${lo} to ${hi}`);
  return fallback;
}

function members(check: FieldCheck, type: Pool['type'], input: PoolInput['members'], bounds: PoolBounds): PoolMember[] {
  if (!Array.isArray(input) || input.length === 0 || input.length > POOL_LIMITS.members) {
    check.fail('members', `must list 1 to ${POOL_LIMITS.members} members`);
    return [];
  }
  const seen = new Set<string>();
  return input.map((m, i) => {
    const at = `members.${i}`;
    const address = check.run(`${at}.address`, () => {
      if (typeof m?.address !== 'string') throw new RuleError(`must be an ${type === 'A' ? 'IPv4' : 'IPv6'} address`);
      const a = type === 'A' ? canonicalIpv4(m.address.trim()) : canonicalIpv6(m.address.trim());
      if (seen.has(a)) throw new RuleError(`${a} is listed twice`);
      seen.add(a);
      if (!bounds.allowPrivate && !isPublicAddress(a))
        throw new RuleError(`${a} is not a public address; health checks reach private, loopback and link-local addresses only when HEALTH_ALLOW_PRIVATE is on`);
      return a;
    });
    return {
      address: address ?? '',
      priority: number(check, `${at}.priority`, m?.priority, POOL_LIMITS.priority, 1),
      weight: number(check, `${at}.weight`, m?.weight, POOL_LIMITS.weight, 1),
    };
  });
}

function healthCheck(check: FieldCheck, input: PoolInput['check'] | undefined, current: PoolCheck | undefined, bounds: PoolBounds): PoolCheck {
  const c = { ...(current ?? {}), ...(input ?? {}) } as Partial<PoolCheck> & { expect_status?: number[] };
  const kind = oneOf(check, 'check.kind', c.kind, CHECK_KINDS, 'tcp');
  if (c.kind === undefined) check.fail('check.kind', `is required: one of ${CHECK_KINDS.join(', ')}`);
  // A kind changed without a port: the new kind's usual port, not the old one's.
  const port = input?.port ?? (input?.kind !== undefined && input.kind !== current?.kind ? undefined : current?.port) ?? defaultPort(kind);
  if (port === null) check.fail('check.port', 'is required for a tcp check');
  const interval = number(check, 'check.interval_s', c.interval_s, [bounds.minIntervalS, POOL_LIMITS.maxIntervalS], Math.max(DEFAULT_CHECK.interval_s, bounds.minIntervalS));
  const timeout = number(check, 'check.timeout_ms', c.timeout_ms, POOL_LIMITS.timeoutMs, Math.min(DEFAULT_CHECK.timeout_ms, interval * 1000));
  if (timeout > interval * 1000) check.fail('check.timeout_ms', `must not exceed the interval (${interval * 1000} ms)`);
  const path = c.path ?? DEFAULT_CHECK.path;
  if (typeof path !== 'string' || !path.startsWith('/') || path.length > POOL_LIMITS.pathLength || /[\s\u0000-\u001f\u007f]/.test(path)) {
    check.fail('check.path', `must start with / and hold no spaces or control characters (at most ${POOL_LIMITS.pathLength} characters)`);
  }
  const host = c.host === undefined || c.host === null || c.host === '' ? null : check.run('check.host', () => normalizeTargetName(String(c.host)));
  const status = c.expect_status ?? DEFAULT_CHECK.expect_status;
  if (!Array.isArray(status) || status.length !== 2 || !whole(status[0], 100, 599) || !whole(status[1], 100, 599) || status[0]! > status[1]!) {
    check.fail('check.expect_status', 'must be [lowest, highest], status codes from 100 to 599');
  }
  const body = c.expect_body ?? null;
  if (body !== null && (typeof body !== 'string' || body.length === 0 || body.length > POOL_LIMITS.bodyLength))
    check.fail('check.expect_body', `must be a text of 1 to ${POOL_LIMITS.bodyLength} characters, or null`);
  if (c.tls_verify !== undefined && typeof c.tls_verify !== 'boolean') check.fail('check.tls_verify', 'must be true or false');
  return {
    kind,
    port: number(check, 'check.port', port ?? 1, [1, 65535], 1),
    path: typeof path === 'string' ? path : '/',
    host: host ?? null,
    expect_status: Array.isArray(status) && status.length === 2 ? [status[0]!, status[1]!] : DEFAULT_CHECK.expect_status,
    expect_body: typeof body === 'string' ? body : null,
    tls_verify: c.tls_verify ?? true,
    interval_s: interval,
    timeout_ms: timeout,
    failures: number(check, 'check.failures', c.failures, POOL_LIMITS.streak, DEFAULT_CHECK.failures),
    successes: number(check, 'check.successes', c.successes, POOL_LIMITS.streak, DEFAULT_CHECK.successes),
  };
}

/**
 * The pool `input` makes in zone `zone` (over `current` for a change: name and type stay), judged
 * whole; Invalid naming every bad field otherwise.
 */
export function judgePool(zone: string, input: PoolInput, current: Pool | undefined, id: number, bounds: PoolBounds): Pool {
  const check = new FieldCheck();
  let name = current?.name ?? '@';
  if (current) {
    if (input.name !== undefined && check.run('name', () => normalizeRecordName(input.name!, zone)) !== current.name) check.fail('name', "cannot change: a pool's name and type stay; make a new pool");
  } else if (typeof input.name !== 'string') check.fail('name', 'is required');
  else name = check.run('name', () => normalizeRecordName(input.name!, zone)) ?? '@';
  const type = current?.type ?? oneOf(check, 'type', input.type, POOL_TYPES, 'A');
  if (current && input.type !== undefined && input.type !== current.type) check.fail('type', "cannot change: a pool's name and type stay; make a new pool");
  if (!current && input.type === undefined) check.fail('type', `is required: one of ${POOL_TYPES.join(', ')}`);
  const pool: Pool = {
    id,
    name,
    type,
    ttl: number(check, 'ttl', input.ttl, POOL_LIMITS.ttl, current?.ttl ?? 30),
    policy: oneOf(check, 'policy', input.policy, POOL_POLICIES, current?.policy ?? 'failover'),
    fallback: oneOf(check, 'fallback', input.fallback, POOL_FALLBACKS, current?.fallback ?? 'all'),
    members: input.members === undefined && current ? current.members : members(check, type, input.members, bounds),
    check: input.check === undefined && current ? current.check : healthCheck(check, input.check, current?.check, bounds),
  };
  check.done();
  return pool;
}
