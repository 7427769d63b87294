import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../testing/bff-harness';

let h: Harness;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>zonedeck</title><script type="module" src="/assets/app-1.js"></script>');
  fs.writeFileSync(path.join(dist, 'assets', 'app-1.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  h = await createHarness({ staticRoot: dist });
});
afterAll(async () => {
  await h.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the dashboard files', () => {
  it('serves index.html for every client route, domain names with dots included', async () => {
    for (const url of ['/', '/sign-in', '/domains', '/domains/example.com', '/domains/xn--bcher-kva.example?name=www', '/ips?page=2']) {
      const res = await h.fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('<title>zonedeck</title>');
    }
  });

  it('sends a CSP without inline script, no framing, nosniff and no referrer with the page and the BFF', async () => {
    for (const url of ['/domains', '/bff/session']) {
      const res = await h.fetch(url);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('caches hashed assets for a year, compresses them, and 404s a missing one instead of sending HTML', async () => {
    const res = await h.fetch('/assets/app-1.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect((await h.fetch('/assets/app-0.js')).status).toBe(404);
    expect((await h.fetch('/favicon.svg')).headers.get('content-type')).toBe('image/svg+xml');
    expect((await h.fetch('/missing.png')).status).toBe(404);
  });

  it('never answers /api or /bff paths with the app, and never leaves the dist directory', async () => {
    expect((await h.fetch('/api/nope')).status).toBe(404);
    expect((await h.fetch('/api/v1/nope')).headers.get('content-type')).toMatch(/application\/json/);
    expect((await h.fetch('/bff/nope')).status).toBe(404);
    expect((await h.fetch('/bff/nope')).headers.get('content-type')).toMatch(/application\/json/);
    const traversal = await h.fetch('/assets/..%2f..%2f..%2fetc%2fpasswd');
    expect(await traversal.text()).not.toContain('root:');
  });

  it('says how to build the app when dist/ is missing', async () => {
    const bare = await createHarness({ staticRoot: path.join(dist, 'nowhere') });
    const res = await bare.fetch('/domains');
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('npm run build');
    await bare.close();
  });
});
