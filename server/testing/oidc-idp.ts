/**
 * A real OpenID provider for tests (the `oidc-provider` package) on 127.0.0.1 and a free port,
 * with one confidential client (client_secret_basic, PKCE required) and the accounts a test
 * gives it. Its login page is a plain form (username only: the accounts are the test's), and
 * consent is granted at once, so a browser or a fetch-driven client goes login → back to zonedeck.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface IdpAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts by login name (what the login form takes); change them between sign-ins. */
  accounts: Map<string, IdpAccount>;
  /**
   * A provider that misbehaves, for the refusals: `state` sends the browser back with another
   * state than the client gave; `nonce` signs another nonce into the ID token than the client asked for.
   */
  tamper: { state?: boolean; nonce?: boolean };
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

async function formBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > 10_000) break;
  }
  return new URLSearchParams(text);
}

/** `redirectUris`: zonedeck's callback(s), e.g. http://localhost/bff/oidc/callback; `port`: 0 for a free one. */
export async function startTestIdp(redirectUris: string[], port = 0): Promise<TestIdp> {
  const accounts = new Map<string, IdpAccount>();
  const bySub = (sub: string) => [...accounts.values()].find((a) => a.sub === sub);
  let handle: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => res.end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'zonedeck';
  const clientSecret = 'test-client-secret-0123456789abcdef';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
    // The claims go into the ID token itself (zonedeck reads them there, as most IdPs send them).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ['test-idp-cookie-key-0123456789'] },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    async findAccount(_ctx: unknown, sub: string) {
      const account = bySub(sub);
      return account ? { accountId: sub, claims: async () => ({ ...account }) } : undefined;
    },
    // Consent is given at once: the test's client is the only one.
    async loadExistingGrant(ctx: any) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const callback = provider.callback();

  const tamper: TestIdp['tamper'] = {};
  handle = (req, res) => {
    if (tamper.nonce && req.url?.startsWith('/auth?')) {
      const u = new URL(req.url, issuer);
      u.searchParams.set('nonce', 'a-nonce-the-client-never-sent');
      req.url = u.pathname + u.search;
    }
    if (tamper.state) {
      const setHeader = res.setHeader.bind(res);
      res.setHeader = (name, value) => {
        if (String(name).toLowerCase() === 'location' && typeof value === 'string' && redirectUris.some((r) => value.startsWith(r))) {
          const u = new URL(value);
          u.searchParams.set('state', 'a-state-the-client-never-gave');
          return setHeader(name, u.href);
        }
        return setHeader(name, value);
      };
    }
    const m = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(req.url ?? '');
    if (!m) return callback(req, res);
    (async () => {
      await provider.interactionDetails(req, res);
      if (req.method === 'POST' && m[2]) {
        const login = (await formBody(req)).get('login') ?? '';
        const account = accounts.get(login);
        if (!account) {
          res.writeHead(200, { 'content-type': 'text/html' }).end(page(m[1]!, 'No such account.'));
          return;
        }
        await provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(m[1]!));
    })().catch((e: unknown) => {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(String(e));
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamper,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function page(uid: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP sign-in</title></head><body>
<h1>Test IdP</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Login <input name="login" autocomplete="username"></label>
<button type="submit">Continue</button>
</form></body></html>`;
}
