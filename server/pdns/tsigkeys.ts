/**
 * TSIG keys (doc.powerdns.com/authoritative/http-api/tsigkey.html) over zonedeck's own keys of the
 * token's user: the same service, quota and names as `/api/v1/tsig-keys`. The secret
 * is answered when it is made (POST) or sent (PUT), and never read back: a read-only or zone-scoped
 * token may list keys, and a stored secret it could read would sign UPDATEs its scope forbids.
 * A token with any scope cannot create, change or revoke keys (server/pdns/scope.ts), as on
 * zonedeck's API. Ids are PowerDNS's: the name with the trailing dot, escaped like zone ids.
 */
import { Hono, type Context } from 'hono';
import { Conflict, Invalid, NotFound } from '../core/errors';
import { TSIG_ALGORITHM_NAMES } from '../core/tsig-rules';
import { auditActor } from '../http/audit-actor';
import type { Services } from '../services';
import { tsigKeyDetail } from '../services/identity/audit';
import type { TsigKeyRow } from '../store/types';
import type { PdnsEnv } from './auth';
import { PdnsError } from './errors';
import { zoneId, zoneNameOfId } from './names';
import { parseBody, TsigKeyChangeIn, TsigKeyIn } from './schemas';
import { bodyJson } from '../http/body';

/** A key as PowerDNS shows one (its `makeJSONTSIGKey`): `key` empty unless this answer may carry the secret. */
const keyView = (k: TsigKeyRow, key = '') => ({ name: k.name, id: zoneId(k.name), algorithm: k.algorithm, key, type: 'TSIGKey' });

/** A key name as written in a body or an id, as the messages show it: lower case, no trailing dot. */
const shown = (name: string) => name.trim().toLowerCase().replace(/\.$/, '').slice(0, 255);

const keyNotFound = (name: string) => new PdnsError(404, `TSIG key with name '${shown(name)}' not found`);

const MD5 = /^hmac-md5(\.sig-alg\.reg\.int)?\.?$/i;

/** Why an algorithm is refused, in PowerDNS's words (`Unknown TSIG algorithm: x`, or `Invalid …` where its key generator refuses it first). */
function algorithmText(raw: string, words: 'Unknown' | 'Invalid'): string {
  const head = `${words} TSIG algorithm: ${raw.slice(0, 64)}`;
  if (MD5.test(raw.trim())) return `${head}: HMAC-MD5 is NOT RECOMMENDED for use (RFC 8945 §6) and zonedeck does not offer it; it signs with ${TSIG_ALGORITHM_NAMES.join(', ')}`;
  return `${head}: zonedeck signs with ${TSIG_ALGORITHM_NAMES.join(', ')}`;
}

interface Wording {
  /** The key the path or body names (404), and the name a create or rename asks for (409). */
  name: string;
  taken?: string;
  /** The algorithm the body gave, for the message. */
  algorithm?: string;
  /** PowerDNS's words for a key that is not base64 (POST and PUT say it differently). */
  base64?: string;
  /** POST without a key: PowerDNS's key generator refuses an unknown algorithm first, with 400. */
  generating?: boolean;
}

/** The service's field errors in PowerDNS's form: one line naming every field (the body's `key` is zonedeck's `secret`). */
function translated(err: Invalid, w: Wording): PdnsError {
  const fields = err.fields ?? {};
  const parts = Object.entries(fields).map(([field, message]) => {
    if (field === 'algorithm') return `algorithm: ${algorithmText(w.algorithm ?? '', w.generating ? 'Invalid' : 'Unknown')}`;
    if (field === 'secret') return `key: ${w.base64 && message.includes('base64') ? `${w.base64}: ${message}` : message}`;
    return `${field}: ${message}`;
  });
  // The one place PowerDNS answers 400 to a field: an unknown algorithm for a key it would generate (its test_post_wrong_algo).
  const status = w.generating && Object.keys(fields).length === 1 && 'algorithm' in fields ? 400 : 422;
  return new PdnsError(status, parts.join('; '));
}

/** Runs a service call, answering its errors as PowerDNS words them. */
async function asPdns<T>(run: () => Promise<T>, w: Wording): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Invalid) throw translated(e, w);
    if (e instanceof Conflict) throw new PdnsError(409, `A TSIG key with the name '${shown(w.taken ?? w.name)}' already exists`);
    if (e instanceof NotFound) throw keyNotFound(w.name);
    throw e;
  }
}

/** The key name a path's id means (`name.`, `=XX` escapes decoded); an id that names nothing is that key's 404. */
function idName(c: Context<PdnsEnv>): string {
  const id = c.req.param('id') ?? '';
  try {
    return zoneNameOfId(id);
  } catch (e) {
    if (e instanceof PdnsError && e.status === 404) throw keyNotFound(id);
    throw e;
  }
}

export function tsigKeysApi(services: Services) {
  const { tsigKeys, audit } = services;
  const userId = (c: Context<PdnsEnv>) => c.get('principal').user.id;
  const record = (c: Context<PdnsEnv>, kind: 'tsig-key-created' | 'tsig-key-deleted', key: TsigKeyRow, more: Record<string, unknown> = {}) => {
    const { user } = c.get('principal');
    return audit.record({ kind, actor: auditActor(c), subject: { id: user.id, username: user.username }, detail: { ...tsigKeyDetail(key), ...more } });
  };

  return new Hono<PdnsEnv>()
    .get('/tsigkeys', async (c) => c.json((await tsigKeys.list(userId(c))).map((k) => keyView(k))))
    .post('/tsigkeys', async (c) => {
      const body = parseBody(TsigKeyIn, await bodyJson(c));
      // An empty key is one to generate, as PowerDNS reads it.
      const secret = body.key || undefined;
      const wording = { name: body.name, algorithm: body.algorithm, base64: 'TSIG content cannot be base64-decoded', generating: secret === undefined };
      const key = await asPdns(() => tsigKeys.create(userId(c), { name: body.name, algorithm: body.algorithm, secret }), wording);
      await record(c, 'tsig-key-created', key);
      // The secret must not linger in any cache between here and its reader.
      c.header('Cache-Control', 'no-store');
      return c.json(keyView(key, key.secret), 201);
    })
    .get('/tsigkeys/:id', async (c) => {
      const name = idName(c);
      return c.json(keyView(await asPdns(() => tsigKeys.own(userId(c), name), { name })));
    })
    .put('/tsigkeys/:id', async (c) => {
      const name = idName(c);
      const body = parseBody(TsigKeyChangeIn, await bodyJson(c));
      // An empty key keeps the secret: a client that read the key (answered with `key: ""`) and sends it back changes nothing.
      const secret = body.key || undefined;
      const wording = { name, taken: body.name, algorithm: body.algorithm, base64: 'Can not base64 decode key content' };
      const key = await asPdns(() => tsigKeys.changeOwn(userId(c), name, { name: body.name, algorithm: body.algorithm, secret }), wording);
      // A renamed or re-keyed key is a new credential in place of the old: `replaces` says which.
      await record(c, 'tsig-key-created', key, { replaces: shown(name), secret_changed: secret !== undefined });
      if (secret === undefined) return c.json(keyView(key));
      c.header('Cache-Control', 'no-store');
      return c.json(keyView(key, key.secret));
    })
    .delete('/tsigkeys/:id', async (c) => {
      const name = idName(c);
      await record(c, 'tsig-key-deleted', await asPdns(() => tsigKeys.revokeOwn(userId(c), name), { name }));
      return c.body(null, 204);
    });
}
