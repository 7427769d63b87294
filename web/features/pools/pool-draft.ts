/**
 * The pool form's state as typed (numbers as text), to and from the API's pool. Numbers are
 * checked here only for being whole numbers: the limits (the shortest interval, the most members)
 * are the server's, and its 400 names the field, which the form shows beside it. Errors are keyed
 * by the API's own field names (`members[1].address`, `check.interval_s`), so the client's and the
 * server's land in the same place.
 */
import type { CheckKind, Pool, PoolCheck, PoolCreate, PoolFallback, PoolPolicy, PoolType } from '../../lib/api-types';

export interface MemberDraft {
  /** Stable across edits, so React keeps each row's inputs (and focus) in place. */
  key: number;
  address: string;
  priority: string;
  weight: string;
}

export interface CheckDraft {
  kind: CheckKind;
  port: string;
  path: string;
  host: string;
  statusFrom: string;
  statusTo: string;
  expectBody: string;
  tlsVerify: boolean;
  interval: string;
  timeout: string;
  failures: string;
  successes: string;
}

export interface PoolDraft {
  name: string;
  type: PoolType;
  ttl: string;
  policy: PoolPolicy;
  fallback: PoolFallback;
  members: MemberDraft[];
  check: CheckDraft;
}

export type FieldErrors = Record<string, string>;

let nextKey = 1;
export const newMember = (address = '', priority = '1', weight = '1'): MemberDraft => ({ key: nextKey++, address, priority, weight });

/** The port a check kind usually listens on. */
export const DEFAULT_PORT: Record<CheckKind, string> = { tcp: '80', http: '80', https: '443' };

export function newPoolDraft(): PoolDraft {
  return {
    name: '',
    type: 'A',
    ttl: '30',
    policy: 'failover',
    fallback: 'all',
    members: [newMember(), newMember('', '2')],
    check: {
      kind: 'http',
      port: DEFAULT_PORT.http,
      path: '/',
      host: '',
      statusFrom: '200',
      statusTo: '399',
      expectBody: '',
      tlsVerify: true,
      interval: '10',
      timeout: '2000',
      failures: '3',
      successes: '2',
    },
  };
}

export function draftOfPool(p: Pool): PoolDraft {
  const c = p.check;
  return {
    name: p.name,
    type: p.type,
    ttl: String(p.ttl),
    policy: p.policy,
    fallback: p.fallback,
    members: p.members.map((m) => newMember(m.address, String(m.priority), String(m.weight))),
    check: {
      kind: c.kind,
      port: String(c.port),
      path: c.path,
      host: c.host ?? '',
      statusFrom: String(c.expect_status[0] ?? ''),
      statusTo: String(c.expect_status[1] ?? ''),
      expectBody: c.expect_body ?? '',
      tlsVerify: c.tls_verify,
      interval: String(c.interval_s),
      timeout: String(c.timeout_ms),
      failures: String(c.failures),
      successes: String(c.successes),
    },
  };
}

/** Reads whole numbers; a blank or other text is an error on `field`. */
function wholeNumbers(errors: FieldErrors) {
  return (field: string, text: string): number => {
    const t = text.trim();
    if (!/^[0-9]{1,9}$/.test(t)) {
      errors[field] = t === '' ? 'is required' : 'must be a whole number';
      return 0;
    }
    return Number(t);
  };
}

function checkOf(c: CheckDraft, num: (field: string, text: string) => number, errors: FieldErrors): PoolCheck {
  const check: PoolCheck = {
    kind: c.kind,
    port: num('check.port', c.port),
    path: c.path.trim() || '/',
    host: c.host.trim() || null,
    expect_status: [num('check.expect_status', c.statusFrom), num('check.expect_status', c.statusTo)],
    // Sent even when empty: a change keeps every field it leaves out, and an emptied box means "no body check".
    expect_body: c.expectBody.trim() || null,
    tls_verify: c.tlsVerify,
    interval_s: num('check.interval_s', c.interval),
    timeout_ms: num('check.timeout_ms', c.timeout),
    failures: num('check.failures', c.failures),
    successes: num('check.successes', c.successes),
  };
  if (!errors['check.expect_status'] && check.expect_status[0]! > check.expect_status[1]!) errors['check.expect_status'] = 'must go from the lower status to the higher';
  return check;
}

/** The body `POST …/pools` takes, or the errors that keep it from being sent. */
export function poolBody(d: PoolDraft): { body: PoolCreate; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const num = wholeNumbers(errors);
  if (d.name.trim() === '') errors.name = 'is required';
  if (d.members.length === 0) errors.members = 'must list at least one member';
  const members = d.members.map((m, i) => {
    if (m.address.trim() === '') errors[`members[${i}].address`] = 'is required';
    return { address: m.address.trim(), priority: num(`members[${i}].priority`, m.priority), weight: num(`members[${i}].weight`, m.weight) };
  });
  const body: PoolCreate = { name: d.name.trim(), type: d.type, ttl: num('ttl', d.ttl), policy: d.policy, fallback: d.fallback, members, check: checkOf(d.check, num, errors) };
  return { body, errors };
}

/**
 * The message for one field among the server's `fields`, whichever way it writes an index
 * (`members[1].address` or `members.1.address`).
 */
export function fieldMessage(fields: FieldErrors, field: string): string | undefined {
  return fields[field] ?? fields[field.replace(/\[(\d+)\]/g, '.$1')];
}
