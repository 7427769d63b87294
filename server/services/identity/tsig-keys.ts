/**
 * TSIG keys (RFC 8945) of a user: create (the secret is returned that once), change,
 * list, revoke. The DNS server reads them from the store (dns/keyring.ts); a key's name is
 * unique across all users, because a TSIG record names only the key.
 */
import { randomBytes } from 'node:crypto';
import { Conflict, Forbidden, NotFound, RuleError } from '../../core/errors';
import { normalizeScope, type ScopeInput } from '../../core/scope';
import { DEFAULT_TSIG_ALGORITHM, normalizeTsigAlgorithm, normalizeTsigKeyName } from '../../core/tsig-rules';
import type { Page, ServiceStore, TsigKeyRow, Window } from '../../store/types';
import { FieldCheck } from '../changes/rule-fields';

/** Octets of a generated secret: 256 bits, the size of an HMAC-SHA256 output (RFC 2104 §3). */
const SECRET_OCTETS = 32;
/** Bounds of a secret brought along (from a BIND or Knot configuration): at least 128 bits. */
const MIN_SECRET_OCTETS = 16;
const MAX_SECRET_OCTETS = 512;

export interface TsigKeyInput {
  name: string;
  algorithm?: string;
  /** Base64; generated when absent. */
  secret?: string;
  scope?: ScopeInput;
}

/** What a change of a key may set (the PowerDNS API's PUT); absent parts stay as they are. */
export interface TsigKeyChange {
  name?: string;
  algorithm?: string;
  secret?: string;
}

function secretRule(text: string): string {
  const t = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(t) || t.length % 4 !== 0) throw new RuleError('must be base64, as tsig-keygen and keymgr print it');
  const n = Buffer.from(t, 'base64').length;
  if (n < MIN_SECRET_OCTETS || n > MAX_SECRET_OCTETS) throw new RuleError(`must decode to ${MIN_SECRET_OCTETS}–${MAX_SECRET_OCTETS} octets`);
  return t;
}

/** The `-y` argument of dig, nsupdate, kdig and knsupdate: `algorithm:name:secret`. */
export const yArgument = (key: Pick<TsigKeyRow, 'algorithm' | 'name' | 'secret'>) => `${key.algorithm}:${key.name}:${key.secret}`;

export function createTsigKeys(store: ServiceStore, maxKeysPerUser?: number) {
  /** The key of that name (of that user, when given); a name that cannot be a key's is simply not found. */
  async function find(name: string, userId?: number): Promise<TsigKeyRow> {
    let key: TsigKeyRow | undefined;
    try {
      key = await store.tsigKeys.byName(normalizeTsigKeyName(name));
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
    }
    if (!key || (userId !== undefined && key.user_id !== userId)) throw new NotFound(`no TSIG key named ${name}`);
    return key;
  }

  async function remove(key: TsigKeyRow): Promise<TsigKeyRow> {
    if (!(await store.tsigKeys.delete(key.id))) throw new NotFound(`no TSIG key named ${key.name}`);
    return key;
  }

  return {
    /** Creates a key; the returned row holds the secret, which nothing shows again. */
    async create(userId: number, input: TsigKeyInput): Promise<TsigKeyRow> {
      const check = new FieldCheck();
      const name = check.run('name', () => normalizeTsigKeyName(input.name));
      const algorithm = check.run('algorithm', () => normalizeTsigAlgorithm(input.algorithm ?? DEFAULT_TSIG_ALGORITHM));
      const secret = input.secret === undefined ? randomBytes(SECRET_OCTETS).toString('base64') : check.run('secret', () => secretRule(input.secret!));
      const scope = normalizeScope(input.scope, (field, rule) => check.run(field, rule));
      check.done();
      return store.transaction(async (tx) => {
        if (await tx.tsigKeys.byName(name!)) throw new Conflict(`a TSIG key named ${name} already exists`, { name: 'is already taken' });
        if (maxKeysPerUser !== undefined) {
          await tx.quotas.lock('tsig-keys', userId);
          if ((await tx.quotas.count('tsig-keys', userId)) >= maxKeysPerUser) {
            throw new Forbidden(`this account already holds ${maxKeysPerUser} TSIG keys; ${maxKeysPerUser} is the most one user may have (MAX_TSIG_KEYS_PER_USER): revoke one first`);
          }
        }
        return tx.tsigKeys.insert({ user_id: userId, name: name!, algorithm: algorithm!, secret: secret!, scope, created_at: new Date().toISOString() });
      });
    },

    /**
     * Renames a key of the user, or gives it another algorithm or secret, keeping its scope. Keys
     * are never edited in place (the DNS server's keyring notices new ids only): the key is
     * replaced, in one transaction, by one with the same scope and creation time.
     */
    async changeOwn(userId: number, name: string, change: TsigKeyChange): Promise<TsigKeyRow> {
      // A key that is not the user's is 404 before anything about the change is judged, as PowerDNS answers.
      const current = await find(name, userId);
      const check = new FieldCheck();
      const given = {
        name: change.name === undefined ? undefined : check.run('name', () => normalizeTsigKeyName(change.name!)),
        algorithm: change.algorithm === undefined ? undefined : check.run('algorithm', () => normalizeTsigAlgorithm(change.algorithm!)),
        secret: change.secret === undefined ? undefined : check.run('secret', () => secretRule(change.secret!)),
      };
      check.done();
      return store.transaction(async (tx) => {
        const key = await tx.tsigKeys.byName(current.name);
        if (!key || key.user_id !== userId) throw new NotFound(`no TSIG key named ${name}`);
        const next = { name: given.name ?? key.name, algorithm: given.algorithm ?? key.algorithm, secret: given.secret ?? key.secret };
        if (next.name === key.name && next.algorithm === key.algorithm && next.secret === key.secret) return key;
        if (next.name !== key.name && (await tx.tsigKeys.byName(next.name))) throw new Conflict(`a TSIG key named ${next.name} already exists`, { name: 'is already taken' });
        await tx.tsigKeys.delete(key.id);
        return tx.tsigKeys.insert({ user_id: userId, ...next, scope: key.scope, created_at: key.created_at });
      });
    },

    /** One of the user's keys; another user's key is NotFound, exactly as a missing one. */
    own: (userId: number, name: string): Promise<TsigKeyRow> => find(name, userId),

    page: (userId: number, w: Window): Promise<Page<TsigKeyRow>> => store.tsigKeys.page(userId, w),
    list: (userId: number): Promise<TsigKeyRow[]> => store.tsigKeys.listByUser(userId),

    /** Revokes one of the user's keys; another user's key is NotFound, exactly as a missing one. */
    revokeOwn: async (userId: number, name: string): Promise<TsigKeyRow> => remove(await find(name, userId)),

    /** Revokes any key by name (the admin CLI). */
    revoke: async (name: string): Promise<TsigKeyRow> => remove(await find(name)),
  };
}

export type TsigKeys = ReturnType<typeof createTsigKeys>;
