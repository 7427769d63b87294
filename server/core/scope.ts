/**
 * Scopes of credentials: the same object limits an API token and a TSIG key.
 * Every part is optional; an absent or empty part restricts nothing.
 *
 * - `zones`: zone names the credential may touch.
 * - `names`: record names relative to their zone (`@` is the apex). A `*` as the whole first
 *   or last label stands for one or more labels: `_acme-challenge.*` matches
 *   `_acme-challenge.www` and `_acme-challenge.a.b`, `*.dev` matches `a.dev` and `a.b.dev`;
 *   `_acme-challenge` matches only itself. A lone `*` matches every name but the apex.
 * - `types`: record types, from the one registry.
 * - `read_only`: no writes at all.
 * - `allowed_ips`: client networks (CIDR) the credential may be used from.
 *
 * Pure: no I/O, so the dashboard can use it too.
 */
import { APEX, MAX_LABEL_LENGTH, MAX_NAME_LENGTH, normalizeZoneName } from './domain-name';
import { RuleError } from './errors';
import { parseIpRange, rangeContains } from './ip-range';
import { recordType } from './record-types';

export interface Scope {
  zones?: string[];
  names?: string[];
  types?: string[];
  read_only?: boolean;
  allowed_ips?: string[];
}

/** What a request does, as far as scopes care; a part left out is not checked. */
export interface ScopeRequest {
  zone?: string;
  /** Relative to `zone`; `@` for the apex. */
  name?: string;
  type?: string;
  write?: boolean;
  /** The client's address as the socket reports it (IPv4-mapped IPv6 included). */
  ip?: string;
}

/** Largest number of entries in one part of a scope: a scope is a short allow-list, not a database. */
export const MAX_SCOPE_ENTRIES = 100;

const SCOPE_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/;

/** A `names` entry, lower case; `@` (or empty) for the apex. Throws RuleError. */
export function normalizeScopeName(input: string): string {
  let name = input.trim().toLowerCase();
  if (name === '' || name === APEX) return APEX;
  if (name.endsWith('.')) throw new RuleError('must be relative to the zone, without a trailing dot (e.g. _acme-challenge)');
  if (name.length > MAX_NAME_LENGTH) throw new RuleError(`must be at most ${MAX_NAME_LENGTH} characters`);
  const labels = name.split('.');
  labels.forEach((label, i) => {
    if (label === '*') {
      if (i === 0 || i === labels.length - 1) return;
      throw new RuleError('"*" is allowed only as the whole first or last label');
    }
    if (label.length === 0) throw new RuleError('must not contain empty labels');
    if (label.length > MAX_LABEL_LENGTH) throw new RuleError(`label "${label}" is longer than ${MAX_LABEL_LENGTH} characters`);
    if (!SCOPE_LABEL.test(label)) throw new RuleError(`label "${label}" may contain only letters, digits, hyphens and underscores`);
  });
  if (labels.length > 1 && labels[0] === '*' && labels.at(-1) === '*') throw new RuleError('"*" may stand at one end of the name only');
  name = labels.join('.');
  return name;
}

/** A `types` entry as the registry spells it (upper case). Throws RuleError. */
export const normalizeScopeType = (input: string): string => recordType(input).type;

/** An `allowed_ips` entry as canonical `address/prefix`. Throws RuleError. */
export function normalizeScopeNetwork(input: string): string {
  const r = parseIpRange(input);
  return `${r.address}/${r.cidr}`;
}

/** The scope as it arrives from a client or the CLI (already shaped by its schema). */
export interface ScopeInput {
  zones?: string[];
  names?: string[];
  types?: string[];
  read_only?: boolean;
  allowed_ips?: string[];
}

/** Runs one rule and records its RuleError under `field` (FieldCheck.run has this shape). */
export type RunRule = <T>(field: string, rule: () => T) => T | undefined;

/**
 * Normalizes every entry (zone names, scope names, types, networks), drops duplicates and
 * empty parts; failures are reported through `run` under `<prefix>.<part>.<index>`.
 */
export function normalizeScope(input: ScopeInput | undefined, run: RunRule, prefix = 'scope'): Scope {
  const scope: Scope = {};
  if (!input) return scope;
  const part = (key: 'zones' | 'names' | 'types' | 'allowed_ips', rule: (s: string) => string) => {
    const list = input[key];
    if (!list || list.length === 0) return;
    if (list.length > MAX_SCOPE_ENTRIES) {
      run(`${prefix}.${key}`, () => {
        throw new RuleError(`must list at most ${MAX_SCOPE_ENTRIES} entries`);
      });
      return;
    }
    const out = new Set<string>();
    list.forEach((entry, i) => {
      const v = run(`${prefix}.${key}.${i}`, () => rule(entry));
      if (v !== undefined) out.add(v);
    });
    scope[key] = [...out];
  };
  part('zones', normalizeZoneName);
  part('names', normalizeScopeName);
  part('types', normalizeScopeType);
  part('allowed_ips', normalizeScopeNetwork);
  if (input.read_only) scope.read_only = true;
  return scope;
}

/** Whether the scope restricts anything at all. */
export function isRestricted(scope: Scope): boolean {
  return Boolean(scope.read_only || scope.zones?.length || scope.names?.length || scope.types?.length || scope.allowed_ips?.length);
}

/** Whether a relative record name matches one `names` entry (see the module comment). */
export function nameMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  if (name === APEX) return false;
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(1);
    return name.length > suffix.length && name.endsWith(suffix);
  }
  if (pattern.endsWith('.*')) {
    const prefix = pattern.slice(0, -1);
    return name.length > prefix.length && name.startsWith(prefix);
  }
  return false;
}

/** An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as dual-stack sockets report) as IPv4. */
function plainAddress(ip: string): string {
  const m = /^::ffff:([0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)$/i.exec(ip);
  return m ? m[1]! : ip;
}

export function allowsAddress(scope: Scope, ip: string | undefined): boolean {
  if (!scope.allowed_ips?.length) return true;
  if (!ip) return false;
  const addr = plainAddress(ip);
  return scope.allowed_ips.some((net) => {
    const slash = net.lastIndexOf('/');
    return rangeContains({ address: net.slice(0, slash), cidr: Number(net.slice(slash + 1)) }, addr);
  });
}

export const allowsZone = (scope: Scope, zone: string): boolean => !scope.zones?.length || scope.zones.includes(zone);
export const allowsName = (scope: Scope, name: string): boolean => !scope.names?.length || scope.names.some((p) => nameMatches(p, name));
export const allowsType = (scope: Scope, type: string): boolean => !scope.types?.length || scope.types.includes(type.toUpperCase());

/** Whether the scope allows the whole zone: its zone list admits it and names and types are unrestricted (zone transfers). */
export const allowsWholeZone = (scope: Scope, zone: string): boolean => allowsZone(scope, zone) && !scope.names?.length && !scope.types?.length;

/** Whether the scope allows every part of the request that is given. */
export function allows(scope: Scope, req: ScopeRequest): boolean {
  if (req.write && scope.read_only) return false;
  if (req.ip !== undefined && !allowsAddress(scope, req.ip)) return false;
  if (req.zone !== undefined && !allowsZone(scope, req.zone)) return false;
  if (req.name !== undefined && !allowsName(scope, req.name)) return false;
  if (req.type !== undefined && !allowsType(scope, req.type)) return false;
  return true;
}

/** Whether the scope limits which records may change (names or types): such a credential changes records only. */
export const limitsRecords = (scope: Scope): boolean => Boolean(scope.names?.length || scope.types?.length);

/**
 * Whether the scope admits every name below `name` (relative; `@` is the apex): a delegation (NS
 * below the apex) or a DNAME at `name` takes the whole subtree, so it needs that too
 *. Admitted by `*`, by `<name>.*`, and by a `*.<suffix>`
 * that covers the subtree (`*.www` for `www`, `*.dev` for `a.dev`).
 */
export function allowsSubtree(scope: Scope, name: string): boolean {
  if (!scope.names?.length) return true;
  return scope.names.some((p) => {
    if (p === '*') return true;
    if (name === APEX) return false;
    if (p === `${name}.*`) return true;
    if (!p.startsWith('*.')) return false;
    const suffix = p.slice(2);
    return name === suffix || name.endsWith(`.${suffix}`);
  });
}

/** Types whose record takes the subtree below its name (RFC 1034 §4.2.1 delegation; RFC 6672 DNAME). */
export const subtreeWrite = (name: string, type: string): boolean => type === 'DNAME' || (type === 'NS' && name !== APEX);

/**
 * Why this scope may not change an RRset of `zone` (null when it may): the zone, read-only, the
 * name and type, and for a delegation or DNAME the subtree below it.
 */
export function recordRefusal(scope: Scope, zone: string, name: string, type: string): string | null {
  if (scope.read_only) return 'this credential is read-only';
  if (!allowsZone(scope, zone)) return `this credential's scope does not include the zone ${zone}`;
  const label = name === APEX ? '@' : name;
  if (!allowsName(scope, name) || !allowsType(scope, type)) return `this credential may not change ${label} ${type} in ${zone}`;
  if (subtreeWrite(name, type) && !allowsSubtree(scope, name)) {
    return `a ${type} record at ${label} takes over every name below it, and this credential's scope does not include ${label === '@' ? '*' : `${label}.*`}`;
  }
  return null;
}

/**
 * Why this scope may not change the zone itself — its settings, DNSSEC and keys, or delete it —
 * (null when it may): read-only, another zone, or a scope limited to names or types.
 */
export function zoneRefusal(scope: Scope, zone: string, what = "the zone's settings"): string | null {
  if (scope.read_only) return 'this credential is read-only';
  if (!allowsZone(scope, zone)) return `this credential's scope does not include the zone ${zone}`;
  if (limitsRecords(scope)) return `this credential may change only the records its scope names, not ${what}`;
  return null;
}

/** The scope as stored (JSON text), and back. A stored value that is not an object throws: a credential never fails open. */
export const scopeToJson = (scope: Scope): string => JSON.stringify(scope);
export function scopeFromJson(text: string | null | undefined): Scope {
  if (!text) return {};
  const v = JSON.parse(text) as unknown;
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('a stored scope is not a JSON object');
  return v as Scope;
}
