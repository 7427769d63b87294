/** A token scoped to zones sees only those zones in GET /domains, with totals to match. */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/test-app';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.user('alice');
  for (const name of ['a.example', 'b.example', 'c.example']) await t.request('POST', '/api/v1/domains', { body: { name } });
});
afterEach(() => t.close());

it('lists only the zones of a token scoped to zones', async () => {
  const res = await t.request('POST', '/api/v1/tokens', { body: { label: 'ci', scope: { zones: ['b.example', 'c.example'] } } });
  expect(res.status, await res.clone().text()).toBe(201);
  const { token } = await res.json();
  const list = await t.request('GET', '/api/v1/domains', { token });
  expect(list.headers.get('x-total-count')).toBe('2');
  expect((await list.json()).map((d: { name: string }) => d.name)).toEqual(['b.example', 'c.example']);
  const outside = await t.request('GET', '/api/v1/domains/a.example', { token });
  expect(outside.status).toBe(403);
  expect((await outside.json()).error).toEqual({ status: 403, code: 'forbidden', message: "this token's scope does not include the zone a.example" });
  expect((await (await t.request('GET', '/api/v1/domains')).json()).length).toBe(3);
});
