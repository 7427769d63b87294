/**
 * Passkeys (WebAuthn): registered from a signed-in session, then a way to sign in on their own.
 * Adding a passkey adds a way in that outlives a password change: a fresh sign-in only, as for a token.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { clientAddress } from '../http/client-address';
import { rpOf } from '../services/identity/passkeys';
import { requireRecent } from '../services/identity/second-factors';
import type { BffDeps } from './bff-deps';
import { BffError } from './errors';
import { originCheck, requireSession, type BffEnv } from './guard';
import { jsonBody, parsedBody } from './json-body';
import { beginSession, requestFrom, reserveTry } from './signing-in';

/** The relying party: the site the dashboard is served at. */
const rp = (c: Context<BffEnv>) => rpOf(c.get('siteOrigin'));

export function passkeyRoutes(deps: BffDeps) {
  const { services, now } = deps;
  const session = requireSession(deps.sessions);
  const passkeyBody = jsonBody(16_384);
  const app = new Hono<BffEnv>();

  app.post('/passkeys/registration-options', originCheck, session, async (c) => {
    const s = c.get('session');
    requireRecent(s.row, now(), 'adding a passkey');
    return c.json(await services.passkeys.registrationOptions({ id: s.row.user_id, username: s.username }, rp(c)), 200);
  });

  app.post('/passkeys', originCheck, session, passkeyBody, async (c) => {
    const s = c.get('session');
    requireRecent(s.row, now(), 'adding a passkey');
    const body = await parsedBody(
      c,
      z.object({ name: z.unknown(), response: z.record(z.string(), z.unknown()) }),
      'send {"name": "…", "response": {…}} (the browser\'s registration response) as JSON',
    );
    const actor = { userId: s.row.user_id, username: s.username, credential: 'session', ...requestFrom(c) };
    const key = await services.passkeys.register(actor, body.name, body.response as never, rp(c));
    return c.json({ id: key.id, name: key.name, created_at: key.created_at, last_used_at: key.last_used_at }, 201);
  });

  app.post('/passkey-sign-in/options', originCheck, async (c) => c.json(await services.passkeys.authenticationOptions(rp(c)), 200));

  app.post('/passkey-sign-in', originCheck, passkeyBody, async (c) => {
    const body = await parsedBody(c, z.object({ response: z.record(z.string(), z.unknown()) }), 'send {"response": {…}} (the browser\'s authentication response) as JSON');
    const attempt = { address: clientAddress(c) };
    await reserveTry(c, deps, attempt, 'sign-ins');
    const proved = await services.passkeys.authenticate(body.response as never, rp(c));
    if (!proved) {
      await services.audit.record({ kind: 'sign-in-failed', actor: { username: '', credential: 'passkey', ...requestFrom(c) }, detail: { factor: 'passkey' } });
      throw new BffError(401, 'invalid_passkey', 'This passkey does not sign in here. Try another one, or your password.');
    }
    await deps.throttle.notAGuess(attempt);
    const { user, passkey } = proved;
    const started = await beginSession(c, deps, user, 'passkey', { factor: 'passkey', passkey: passkey.name });
    return c.json(await deps.info(started), 200);
  });

  return app;
}
