/** The BFF's own JSON routes take application/json only: another type, or none, is a 415 naming it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, ORIGIN, type Harness } from '../testing/bff-harness';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await h.services.accounts.addUser('alice', 'password123');
});
afterEach(() => h.close());

/** A sign-in from the dashboard's own origin; bytes, so that no content type is added to a string. */
const signIn = (body: string, type: string | undefined) =>
  h.fetch('/bff/sign-in', {
    method: 'POST',
    headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...(type === undefined ? {} : { 'content-type': type }) },
    body: new TextEncoder().encode(body),
  });
const credentials = JSON.stringify({ username: 'alice', password: 'password123' });

describe("the BFF's JSON bodies", () => {
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=b', undefined])(
    'a sign-in sent as %s is 415 naming application/json, and signs no one in',
    async (type) => {
      const res = await signIn(credentials, type);
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({ error: { status: 415, code: 'unsupported_media_type', message: 'send the request body as application/json, with that Content-Type header' } });
      expect(res.headers.get('set-cookie')).toBeNull();
    },
  );

  it('takes application/json with a charset, and names the shape when the JSON is not it', async () => {
    expect((await signIn(credentials, 'application/json; charset=utf-8')).status).toBe(200);
    const bad = await signIn('{"username": ', 'application/json');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBe('send {"username": "…", "password": "…"} as JSON');
  });
});
