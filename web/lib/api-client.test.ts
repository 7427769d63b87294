import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, handleSignedOut, request, requestAll, requestPage, requestWrite, serialOfEtag, setCsrfToken, watchAnswers } from './api-client';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken(undefined);
});

describe('the api client', () => {
  it("turns an error body into an ApiError with the server's fields", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ error: { status: 400, code: 'invalid_field', message: 'ttl: bad', fields: { ttl: 'must be digits' } } }, 400)),
    );
    const err = (await request('POST', '/bff/api/x', { body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_field', message: 'ttl: bad' });
    expect(err.field('ttl')).toBe('must be digits');
  });

  it('sends the CSRF token on state-changing calls only', async () => {
    const fetch = vi.fn(async () => json({}));
    vi.stubGlobal('fetch', fetch);
    setCsrfToken('t0k');
    await request('GET', '/a');
    await request('DELETE', '/a');
    const headers = (fetch.mock.calls as unknown as Array<[string, RequestInit]>).map(([, init]) => init.headers as Record<string, string>);
    expect(headers[0]!['x-csrf-token']).toBeUndefined();
    expect(headers[1]!['x-csrf-token']).toBe('t0k');
  });

  it('reports a lost session once, so the app can go to sign-in', async () => {
    const lost = vi.fn();
    handleSignedOut(lost);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ error: { status: 401, code: 'signed_out', message: 'gone' } }, 401)),
    );
    await expect(request('GET', '/bff/api/ips')).rejects.toThrow('gone');
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('reads totals from the pagination headers and loads every page for requestAll', async () => {
    const fetch = vi.fn(async (url: string) => {
      const page = Number(new URL(url, 'http://x').searchParams.get('page'));
      return json(page <= 3 ? Array.from({ length: page < 3 ? 500 : 7 }, (_, i) => (page - 1) * 500 + i) : [], 200, { 'x-total-count': '1007', 'x-page': String(page), 'x-per-page': '500' });
    });
    vi.stubGlobal('fetch', fetch);
    const first = await requestPage<number>('/bff/api/ips', { page: 1, per_page: 500 });
    expect(first).toMatchObject({ total: 1007, page: 1, perPage: 500 });
    const all = await requestAll<number>('/bff/api/domains/x/records');
    expect(all).toHaveLength(1007);
    expect(all[1006]).toBe(1006);
  });

  it('says so when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('failed'))),
    );
    await expect(request('GET', '/x')).rejects.toMatchObject({ status: 0, code: 'network' });
  });

  it('sends If-Match with the serial a write was made against and reads the new serial from the ETag', async () => {
    const fetch = vi.fn(async () => json({ id: 1 }, 200, { etag: '"2026112305"' }));
    vi.stubGlobal('fetch', fetch);
    const w = await requestWrite<{ id: number }>('PUT', '/bff/api/domains/x/records/1', { body: {}, ifMatch: 2026112304 });
    expect(w).toEqual({ data: { id: 1 }, serial: 2026112305 });
    const [, init] = (fetch.mock.calls as unknown as Array<[string, RequestInit]>)[0]!;
    expect((init.headers as Record<string, string>)['if-match']).toBe('"2026112304"');
  });

  it('sends a text body with its own content type, for a zone file', async () => {
    const fetch = vi.fn(async () => json({ change: {}, ignored: [] }, 200, { etag: '"7"' }));
    vi.stubGlobal('fetch', fetch);
    setCsrfToken('t0k');
    await requestWrite('POST', '/bff/api/domains/x/zone', { text: { type: 'text/dns; charset=utf-8', data: 'www IN A 192.0.2.1\n' }, ifMatch: 6 });
    const [, init] = (fetch.mock.calls as unknown as Array<[string, RequestInit]>)[0]!;
    expect(init.body).toBe('www IN A 192.0.2.1\n');
    expect(init.headers).toMatchObject({ 'content-type': 'text/dns; charset=utf-8', 'if-match': '"6"', 'x-csrf-token': 't0k' });
  });

  it('keeps the 412 of a stale write as an ApiError with the serial the zone is at', async () => {
    const body = { error: { status: 412, code: 'precondition_failed', message: 'x.test has changed', fields: { 'If-Match': 'the zone is at serial 9' } } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(body, 412)),
    );
    await expect(requestWrite('DELETE', '/bff/api/domains/x/records/1', { ifMatch: 8 })).rejects.toMatchObject({
      status: 412,
      code: 'precondition_failed',
      fields: { 'If-Match': 'the zone is at serial 9' },
    });
  });

  it('reads a serial from strong, weak and bare entity tags only', () => {
    expect(serialOfEtag('"42"')).toBe(42);
    expect(serialOfEtag('W/"42"')).toBe(42);
    expect(serialOfEtag('42')).toBe(42);
    expect(serialOfEtag(null)).toBeUndefined();
    expect(serialOfEtag('"abc"')).toBeUndefined();
  });
});

describe('the answers the outage banner hears', () => {
  afterEach(() => watchAnswers(() => {}));

  it('carries Retry-After on the error and tells the watcher of every answer, refused or not', async () => {
    const heard: Array<[string, string | null]> = [];
    watchAnswers((method, err) => heard.push([method, err ? `${err.status} ${err.code} ${err.retryAfterS}` : null]));
    const fetch = vi.fn(async () => json({ error: { status: 503, code: 'store_unavailable', message: 'the database does not answer' } }, 503, { 'retry-after': '5' }));
    vi.stubGlobal('fetch', fetch);
    const err = (await request('POST', '/bff/api/domains', { body: {} }).catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ status: 503, code: 'store_unavailable', retryAfterS: 5 });
    fetch.mockImplementation(async () => json({ error: { status: 507, code: 'insufficient_storage', message: 'full' } }, 507));
    await request('PUT', '/bff/api/x').catch(() => {});
    fetch.mockImplementation(async () => json({}));
    await request('GET', '/bff/session');
    expect(heard).toEqual([
      ['POST', '503 store_unavailable 5'],
      ['PUT', '507 insufficient_storage undefined'],
      ['GET', null],
    ]);
  });
});
