/**
 * Every route of the running server that a body may be sent to (all but GET and HEAD), with random
 * bodies and content types: the v1 API's routes as its OpenAPI document lists them, the
 * PowerDNS-compatible API's and the dashboard backend's as the app routes them. Whatever arrives (JSON of any shape, text, form data, bytes that are not UTF-8,
 * under any content type or none), the answer is never a 5xx, and every 4xx carries the error body
 * of its API, so a client can always tell what was expected.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createLogger } from './log';
import { cli, startServer, type ServerProcess } from './testing/server-process';
import { createTestApp, type TestApp } from './testing/test-app';
import { adminSession } from './testing/admin-session';

const ZONE = 'held.example';

let server: ServerProcess;
let token: string;
let local: TestApp;
let session: { cookie: string; csrf: string };

beforeAll(async () => {
  server = await startServer({ BODY_LIMIT_BYTES: '4096', BULK_BODY_LIMIT_BYTES: '16384' });
  token = cli(server.dataDir, 'tokens', 'create', 'admin').at(-1)!;
  cli(server.dataDir, 'users', 'add', 'bob');
  expect((await api('POST', '/api/v1/domains', JSON.stringify({ name: ZONE }), 'application/json')).status).toBe(201);
  expect((await api('POST', '/api/v1/teams', JSON.stringify({ name: 'crew' }), 'application/json')).status).toBe(201);
  session = await adminSession(server);
  // The routes of the PowerDNS API and the BFF, as the app itself routes them (no document lists them).
  local = await createTestApp();
});
afterAll(async () => {
  await server?.stop();
  await local?.close();
});

/** A request with the admin's token, as the v1 API and the PowerDNS API each take it. */
function api(method: string, path: string, body: BodyInit | undefined, type: string | undefined): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-api-key': token, ...(type === undefined ? {} : { 'content-type': type }) },
    body,
  });
}

/** JSON values of every kind, and bodies that are not JSON at all. */
const jsonText = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '-0',
      '1e400',
      '-1e400',
      '123456789012345678901234567890',
      '"\\u0000"',
      '"\\ud800"',
      '{"name": "\\u202e💥"}',
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      'null',
      '{}',
      '[]',
      '""',
      'true',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .record(
        { name: fc.oneof(fc.string(), fc.constant(ZONE)), record_type: fc.constantFrom('A', 'TXT', 'SOA', 'x'), content: fc.string(), ttl: fc.oneof(fc.integer(), fc.string()) },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
  },
);
const body = fc.oneof(
  { weight: 6, arbitrary: jsonText.map((t): BodyInit => t) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme' }).map((t): BodyInit => t) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<BodyInit>('', '$ORIGIN held.example.\nwww 300 IN A 192.0.2.1\n', 'name=x&record_type=A', '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n'),
  },
  { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b): BodyInit => Buffer.from(b)) },
  // Past BODY_LIMIT_BYTES (and BULK_BODY_LIMIT_BYTES) of this server.
  { weight: 1, arbitrary: fc.constant<BodyInit>(JSON.stringify({ name: 'x'.repeat(20_000) })) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
/** Every route meets each of these, with random bodies and paths: JSON types several times, the rest once. */
const CONTENT_TYPES: Array<[type: string | undefined, runs: number]> = [
  ['application/json', 4],
  ['application/json; charset=utf-8', 2],
  ['application/merge-patch+json', 1],
  ['text/plain', 1],
  ['text/dns', 1],
  ['text/dns; charset=utf-8', 1],
  ['multipart/form-data; boundary=b', 1],
  ['multipart/form-data', 1],
  ['application/x-www-form-urlencoded', 1],
  [undefined, 2],
  ['garbage', 1],
  ['application/', 1],
  ['application/jsonx', 1],
  [';;;', 1],
];

/** A path parameter: a real one (the zone the admin holds, a user, a team, a small id) or anything. */
const REAL: Record<string, string[]> = {
  name: [ZONE, 'crew'],
  domain_name: [ZONE],
  zone_id: [`${ZONE}.`, ZONE],
  username: ['bob'],
  id: ['1', '2'],
  key_id: ['1'],
  kind: ['ALLOW-AXFR-FROM', 'SOA-EDIT-API'],
};
const anyParam = fc.oneof(
  fc.string({ minLength: 1 }).map((s) => encodeURIComponent(s)),
  fc.constantFrom('0', '-1', '99999999999999999999', 'x'.repeat(300), '%00', '%2e%2e'),
);
const param = (name: string) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(REAL[name] ?? ['1'])) }, anyParam);

/**
 * A route's path with every `{param}` or `:param` filled from `param`; a DELETE's from random
 * values only, so that it cannot remove the zone, team, user or token the rest of the test uses.
 */
function pathOf(method: string, template: string): fc.Arbitrary<string> {
  const names = [...template.matchAll(/\{(\w+)\}|:(\w+)/g)].map((m) => m[1] ?? m[2]!);
  return fc.tuple(...names.map((name) => (method === 'DELETE' ? anyParam : param(name)))).map((values) => {
    let i = 0;
    return template.replace(/\{(\w+)\}|:(\w+)/g, () => values[i++]!);
  });
}

/** Every route a request with a body may be sent to (fetch sends none with GET or HEAD), once each. */
function bodyRoutes(routes: Array<{ method: string; path: string }>): Array<{ method: string; path: string }> {
  const seen = new Set<string>();
  return routes.filter((r) => {
    const key = `${r.method} ${r.path}`;
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) || r.path.includes('*') || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Never a 5xx; a 4xx in the error body of its API. */
async function expectClean(res: Response, shape: 'v1' | 'pdns', what: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${what}: ${text}`).toBeLessThan(500);
  if (res.status < 400) return;
  let parsed: { error: unknown };
  try {
    parsed = JSON.parse(text) as { error: unknown };
  } catch {
    throw new Error(`${what}: ${res.status} without a JSON error body: ${text}`);
  }
  if (shape === 'pdns') expect(parsed.error, what).toEqual(expect.any(String));
  else expect(parsed.error, `${what}: ${text}`).toMatchObject({ status: res.status, code: expect.any(String), message: expect.any(String) });
}

async function throwAt(route: { method: string; path: string }, send: (path: string, b: BodyInit | undefined, type: string | undefined) => Promise<Response>, shape: 'v1' | 'pdns'): Promise<void> {
  for (const [type, runs] of CONTENT_TYPES) {
    await fc.assert(
      fc.asyncProperty(pathOf(route.method, route.path), body, async (path, b) => {
        // Bytes, so that fetch adds no content type of its own to a string.
        const bytes = typeof b === 'string' ? Buffer.from(b) : b;
        await expectClean(await send(path, bytes, type), shape, `${route.method} ${path} (${type ?? 'no content type'})`);
      }),
      { numRuns: runs },
    );
  }
}

/** The routes of the v1 API (but GET) as its OpenAPI document lists them, under `prefix`. */
async function documentedRoutes(prefix: string): Promise<Array<{ method: string; path: string }>> {
  const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  // Not the admin's own password or the sign-in settings: a random body that happened to be valid would lock the test out.
  return bodyRoutes(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: `${prefix}${path}` })))).filter(
    (r) => !/\/account\/password$|\/settings\/sign-in$/.test(r.path),
  );
}

/** The routes of the app itself (the PowerDNS API and the BFF have no document that lists them). */
const appRoutes = () => buildApp({ services: local.services, config: local.config, log: createLogger('silent') }).routes;

describe('every route, random bodies and content types', () => {
  it('the v1 API: every route in its OpenAPI document', async () => {
    const routes = await documentedRoutes('/api/v1');
    expect(routes.length).toBeGreaterThan(25);
    for (const route of routes) await throwAt(route, (path, b, type) => api(route.method, path, b, type), 'v1');
  });

  it('the PowerDNS API: every route it serves', async () => {
    const routes = bodyRoutes(appRoutes().filter((r) => r.path.startsWith('/api/v1/servers')));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) await throwAt(route, (path, b, type) => api(route.method, path, b, type), 'pdns');
  });

  it("the dashboard's backend: its own routes and the API calls it forwards, with a session and its CSRF token", async () => {
    // Not sign-out: it would end the session the rest of the test runs in.
    const own = bodyRoutes(appRoutes().filter((r) => r.path.startsWith('/bff/') && !r.path.endsWith('/sign-out')));
    expect(own.length).toBeGreaterThan(4);
    const headers = { cookie: session.cookie, origin: server.url, 'sec-fetch-site': 'same-origin', 'x-csrf-token': session.csrf };
    for (const route of [...own, ...(await documentedRoutes('/bff/api'))]) {
      await throwAt(route, (path, b, type) => fetch(`${server.url}${path}`, { method: route.method, headers: { ...headers, ...(type === undefined ? {} : { 'content-type': type }) }, body: b }), 'v1');
    }
  });
});
