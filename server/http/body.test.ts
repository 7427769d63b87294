import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '2048', BODY_TIMEOUT_MS: '200' });
  await t.user('alice');
});
afterEach(() => t.close());

const domains = async () => (await (await t.request('GET', '/api/v1/domains')).json()) as unknown[];

describe('request bodies', () => {
  it.each([
    ['{"name":', 'request body is not valid JSON (UTF-8)'],
    ['', 'request body is not valid JSON (UTF-8)'],
    [`${'['.repeat(40)}${']'.repeat(40)}`, 'request body is nested deeper than 32 levels'],
  ])('answers 400 invalid_json for %j', async (raw, message) => {
    const res = await t.request('POST', '/api/v1/domains', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { status: 400, code: 'invalid_json', message } });
    expect(await domains()).toEqual([]);
  });

  it.each([
    ['application/x-www-form-urlencoded', 'name=example.com'],
    ['text/plain', '{"name": "example.com"}'],
    ['multipart/form-data; boundary=b', '--b--'],
    ['garbage', '{"name": "example.com"}'],
  ])('answers 415 naming application/json for a body sent as %s', async (type, raw) => {
    const res = await t.request('POST', '/api/v1/domains', { raw, headers: { 'content-type': type } });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: { status: 415, code: 'unsupported_media_type', message: 'send the request body as application/json, with that Content-Type header' } });
    expect(await domains()).toEqual([]);
  });

  it('answers 415 for a body with no content type, and takes a bare POST where the body is optional', async () => {
    expect((await t.request('POST', '/api/v1/domains', { raw: '{"name": "example.com"}' })).status).toBe(415);
    expect((await t.request('POST', '/api/v1/domains')).status).toBe(415);
    expect(await domains()).toEqual([]);
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'bare.example' } })).status).toBe(201);
    expect((await t.request('POST', '/api/v1/domains/bare.example/records', { body: { name: 'www', record_type: 'A', content: '192.0.2.1' } })).status).toBe(200);
    const [latest] = (await (await t.request('GET', '/api/v1/domains/bare.example/changes')).json()) as Array<{ id: number }>;
    // A revert's comment is optional: no body and no content type is a revert without one.
    expect((await t.request('POST', `/api/v1/domains/bare.example/changes/${latest!.id}/revert`)).status).toBe(200);
    expect(await (await t.request('GET', '/api/v1/domains/bare.example/records?record_type=A')).json()).toEqual([]);
  });

  it('answers a zone import sent as JSON with 415 naming the zone file types, whatever the body, and changes nothing', async () => {
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'file.example' } })).status).toBe(201);
    const records = async () => (await (await t.request('GET', '/api/v1/domains/file.example/records')).json()) as unknown[];
    const before = await records();
    for (const raw of ['{}', '"$ORIGIN file.example.\\nwww 300 IN A 192.0.2.1"', 'not json', '']) {
      const res = await t.request('POST', '/api/v1/domains/file.example/zone', { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: { status: 415, code: 'unsupported_media_type', message: 'send the request body as text/dns or text/plain, with that Content-Type header' } });
    }
    expect(await records()).toEqual(before);
  });

  it('answers 413 for a body over the limit', async () => {
    // POST /domains takes a whole zone file, so it has the bulk limit; records take the ordinary one.
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'x.example' } })).status).toBe(201);
    const res = await t.request('POST', '/api/v1/domains/x.example/records', { body: { name: 'x'.repeat(4000) } });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect((await (await t.request('GET', '/api/v1/domains/x.example/records')).json()).map((r: { record_type: string }) => r.record_type)).toEqual(['NS', 'NS']);
    // A path that names no zone is 404 before its body is read.
    expect((await t.request('POST', '/api/v1/domains/nope.example/records', { body: { name: 'x'.repeat(4000) } })).status).toBe(404);
  });

  it('answers 413 for a streamed body that grows past the limit without a content-length', async () => {
    const chunk = new TextEncoder().encode(' '.repeat(1024));
    let sent = 0;
    const raw = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent++ < 4) ctrl.enqueue(chunk);
        else ctrl.close();
      },
    });
    expect((await t.request('POST', '/api/v1/domains', { body: { name: 'x.example' } })).status).toBe(201);
    const res = await t.request('POST', '/api/v1/domains/x.example/records', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
  });

  it('answers 408 when the body does not arrive in time, and stores nothing', async () => {
    const raw = new ReadableStream<Uint8Array>({
      start(ctrl) {
        ctrl.enqueue(new TextEncoder().encode('{"name": "slow.exam'));
      },
    });
    const res = await t.request('POST', '/api/v1/domains', { raw, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(408);
    expect((await res.json()).error).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(await domains()).toEqual([]);
  });

  it('answers unknown routes with the JSON error body', async () => {
    const res = await t.request('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect((await res.json()).error).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('answers an internal failure with 500 and a request id, without a stack trace', async () => {
    await t.forge.close();
    const res = await t.request('GET', '/api/v1/ips');
    expect(res.status).toBe(500);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body.error).toMatchObject({ status: 500, code: 'internal', request_id: res.headers.get('x-request-id') });
    expect(text).not.toMatch(/at .*\.ts:\d+|Error:/);
  });
});

describe('OpenAPI document', () => {
  it('describes every endpoint with its error responses, without authentication', async () => {
    const res = await t.request('GET', '/api/v1/openapi.json', { token: null });
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    const ops = Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, Object.keys(op.responses)] as const),
    );
    expect(Object.fromEntries(ops)).toEqual({
      'GET /ips': ['200', '400', '401', '403', '500'],
      'GET /domains': ['200', '400', '401', '403', '500'],
      'POST /domains': ['201', '400', '401', '403', '408', '409', '413', '415', '500'],
      'GET /domains/{name}': ['200', '401', '403', '404', '500'],
      'PUT /domains/{name}': ['200', '400', '401', '403', '404', '408', '412', '413', '415', '500'],
      'DELETE /domains/{name}': ['200', '400', '401', '403', '404', '412', '500'],
      'POST /domains/{name}/retrieve': ['202', '401', '403', '404', '500'],
      'GET /catalogs': ['200', '401', '403', '500'],
      'POST /catalogs': ['201', '400', '401', '403', '409', '415', '500'],
      'POST /catalogs/{zone}/retrieve': ['202', '401', '403', '404', '500'],
      'DELETE /catalogs/{zone}': ['204', '401', '403', '404', '500'],
      'GET /deleted-domains': ['200', '400', '401', '403', '500'],
      'POST /deleted-domains/{id}/restore': ['200', '400', '401', '403', '404', '409', '415', '500'],
      'GET /domains/{domain_name}/records': ['200', '400', '401', '403', '404', '500'],
      'POST /domains/{domain_name}/records': ['200', '400', '401', '403', '404', '408', '409', '412', '413', '415', '500'],
      'GET /domains/{domain_name}/records/{id}': ['200', '401', '403', '404', '500'],
      'PUT /domains/{domain_name}/records/{id}': ['200', '400', '401', '403', '404', '408', '409', '412', '413', '415', '500'],
      'DELETE /domains/{domain_name}/records/{id}': ['200', '400', '401', '403', '404', '412', '500'],
      'GET /domains/{name}/changes': ['200', '400', '401', '403', '404', '500'],
      'GET /domains/{name}/changes/{id}': ['200', '401', '403', '404', '500'],
      'POST /domains/{name}/changes/{id}/revert': ['200', '400', '401', '403', '404', '409', '412', '415', '500'],
      'GET /domains/{name}/stats': ['200', '400', '401', '403', '404', '500'],
      'GET /domains/{name}/delegation': ['200', '400', '401', '403', '404', '500'],
      'GET /domains/{name}/dnssec': ['200', '401', '403', '404', '500'],
      'POST /domains/{name}/dnssec/rollover': ['202', '400', '401', '403', '404', '409', '415', '500'],
      'GET /domains/{name}/pools': ['200', '401', '403', '404', '500'],
      'POST /domains/{name}/pools': ['200', '201', '400', '401', '403', '404', '409', '412', '413', '415', '500'],
      'GET /domains/{name}/pools/{pool}': ['200', '401', '403', '404', '500'],
      'PUT /domains/{name}/pools/{pool}': ['200', '400', '401', '403', '404', '409', '412', '413', '415', '500'],
      'DELETE /domains/{name}/pools/{pool}': ['200', '204', '401', '403', '404', '412', '500'],
      'GET /webhooks': ['200', '401', '403', '500'],
      'POST /webhooks': ['201', '400', '401', '403', '408', '413', '415', '500'],
      'GET /webhooks/{id}': ['200', '401', '403', '404', '500'],
      'PUT /webhooks/{id}': ['200', '400', '401', '403', '404', '408', '413', '415', '500'],
      'DELETE /webhooks/{id}': ['204', '401', '403', '404', '500'],
      'GET /webhooks/{id}/deliveries': ['200', '400', '401', '403', '404', '500'],
      'POST /webhooks/{id}/deliveries/{delivery}/redeliver': ['202', '401', '403', '404', '500'],
      'POST /webhooks/{id}/ping': ['202', '401', '403', '404', '500'],
      'GET /domains/{name}/template': ['200', '401', '403', '404', '500'],
      'GET /settings/sign-in': ['200', '401', '403', '500'],
      'PUT /settings/sign-in': ['200', '400', '401', '403', '408', '413', '415', '500'],
      'PUT /users/{username}/email': ['200', '400', '401', '403', '404', '408', '409', '413', '415', '500'],
      'GET /account/identities': ['200', '401', '403', '500'],
      'DELETE /account/identities/{id}': ['204', '401', '403', '404', '500'],
      'GET /domains/{name}/stats/top': ['200', '400', '401', '403', '404', '500'],
      'PATCH /domains/{name}/rrsets': ['200', '400', '401', '403', '404', '408', '409', '412', '413', '415', '500'],
      'GET /domains/{name}/zone': ['200', '401', '403', '404', '500'],
      'POST /domains/{name}/zone': ['200', '400', '401', '403', '404', '408', '409', '412', '413', '415', '500'],
      'GET /tokens': ['200', '400', '401', '403', '500'],
      'POST /tokens': ['201', '400', '401', '403', '408', '413', '415', '500'],
      'DELETE /tokens/{id}': ['200', '401', '403', '404', '500'],
      'GET /tsig-keys': ['200', '400', '401', '403', '500'],
      'POST /tsig-keys': ['201', '400', '401', '403', '408', '409', '413', '415', '500'],
      'DELETE /tsig-keys/{name}': ['200', '401', '403', '404', '500'],
      'GET /account': ['200', '401', '403', '500'],
      'PUT /account/password': ['204', '400', '401', '403', '408', '413', '415', '500'],
      'GET /account/sessions': ['200', '400', '401', '403', '500'],
      'DELETE /account/sessions/{id}': ['204', '401', '403', '404', '500'],
      'GET /users': ['200', '400', '401', '403', '500'],
      'POST /users': ['201', '400', '401', '403', '408', '409', '413', '415', '500'],
      'PATCH /users/{username}': ['200', '400', '401', '403', '404', '408', '409', '413', '415', '500'],
      'POST /users/{username}/password': ['200', '401', '403', '404', '500'],
      'GET /audit': ['200', '400', '401', '403', '500'],
      'GET /account/second-factors': ['200', '401', '403', '500'],
      'GET /account/passkeys': ['200', '401', '403', '500'],
      'DELETE /account/passkeys/{id}': ['204', '401', '403', '404', '500'],
      'POST /account/totp': ['200', '401', '403', '409', '500'],
      'POST /account/totp/confirm': ['200', '400', '401', '403', '408', '409', '413', '415', '500'],
      'DELETE /account/totp': ['204', '401', '403', '500'],
      'POST /account/recovery-codes': ['200', '401', '403', '409', '500'],
      'DELETE /users/{username}/second-factors': ['204', '401', '403', '404', '500'],
      'GET /users/{username}/ips': ['200', '400', '401', '403', '404', '500'],
      'POST /users/{username}/ips': ['201', '400', '401', '403', '404', '409', '415', '500'],
      'DELETE /users/{username}/ips/{id}': ['204', '401', '403', '404', '500'],
      'GET /admin/domains': ['200', '400', '401', '403', '500'],
      'GET /teams': ['200', '400', '401', '403', '500'],
      'POST /teams': ['201', '400', '401', '403', '408', '409', '413', '415', '500'],
      'GET /teams/{name}': ['200', '401', '403', '404', '500'],
      'DELETE /teams/{name}': ['204', '401', '403', '404', '409', '500'],
      'GET /teams/{name}/members': ['200', '401', '403', '404', '500'],
      'POST /teams/{name}/members': ['201', '400', '401', '403', '404', '408', '409', '413', '415', '500'],
      'PUT /teams/{name}/members/{username}': ['200', '400', '401', '403', '404', '408', '409', '413', '415', '500'],
      'DELETE /teams/{name}/members/{username}': ['204', '401', '403', '404', '409', '500'],
      'GET /teams/{name}/invitations': ['200', '401', '403', '404', '500'],
      'DELETE /teams/{name}/invitations/{username}': ['204', '401', '403', '404', '500'],
      'GET /invitations': ['200', '401', '403', '500'],
      'POST /invitations/{team}/accept': ['200', '401', '403', '404', '409', '500'],
      'DELETE /invitations/{team}': ['204', '401', '403', '404', '500'],
      'GET /domains/{name}/team-events': ['200', '400', '401', '403', '404', '500'],
      'PUT /domains/{name}/owner': ['200', '400', '401', '403', '404', '408', '409', '413', '415', '500'],
      'GET /templates': ['200', '400', '401', '403', '500'],
      'POST /templates': ['201', '400', '401', '403', '404', '408', '409', '413', '415', '500'],
      'GET /templates/{id}': ['200', '401', '403', '404', '500'],
      'PUT /templates/{id}': ['200', '400', '401', '403', '404', '408', '409', '413', '415', '500'],
      'DELETE /templates/{id}': ['200', '401', '403', '404', '500'],
      'POST /templates/{id}/apply': ['200', '400', '401', '403', '404', '408', '409', '412', '413', '415', '500'],
      'GET /templates/{id}/zones': ['200', '401', '403', '404', '500'],
      'GET /records': ['200', '400', '401', '403', '500'],
      'POST /records/bulk': ['200', '400', '401', '403', '404', '408', '409', '412', '413', '415', '500'],
      'GET /batches/{id}': ['200', '401', '403', '404', '500'],
      'POST /batches/{id}/revert': ['200', '400', '401', '403', '404', '409', '415', '500'],
    });
    expect(doc.components.schemas.Record.properties.ttl.type).toBe('string');
    expect(doc.components.schemas.Ip.required).toEqual(['id', 'address', 'active', 'cidr', 'ipv4', 'ipv6', 'first', 'last']);
    expect(doc.components.securitySchemes).toMatchObject({ bearer: { type: 'http', scheme: 'bearer' }, apikey: { type: 'apiKey', in: 'query' } });
  });
});
