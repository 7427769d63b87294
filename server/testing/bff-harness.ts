/**
 * For BFF tests: the whole app over a real SQLite file in a temp dir, a controllable clock,
 * and a browser-like client that keeps the session cookie and sends Origin and CSRF headers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { servicesFor, type Services } from '../services';
import { openSqliteStore } from '../store/sqlite/sqlite';
import type { Store } from '../store/types';
import type { BffOptions, SessionInfo } from '../bff/index';

export const ORIGIN = 'http://localhost';

export interface Harness {
  dir: string;
  services: Services;
  clock: { now: number };
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** Reopens store and app on the same file, as a restart of the process does. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function createHarness(opts: Omit<BffOptions, 'now'> & { staticRoot?: string } = {}, dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-bff-'))): Promise<Harness> {
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' });
  const clock = { now: Date.now() };
  let store: Store;
  let app: ReturnType<typeof buildApp>;
  const h: Harness = {
    dir,
    services: undefined as unknown as Services,
    clock,
    fetch: (url, init) => Promise.resolve(app.request(url.startsWith('http') ? url : `${ORIGIN}${url}`, init)),
    async restart() {
      await store?.close();
      store = await openSqliteStore(config.sqlitePath);
      h.services = servicesFor(store, config);
      app = buildApp({ services: h.services, config, log: createLogger('silent'), bff: { ...opts, now: () => clock.now }, staticRoot: opts.staticRoot });
    },
    async close() {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await h.restart();
  return h;
}

/** A browser-like client: one cookie jar, same-origin headers, the CSRF token after sign-in. */
export class Browser {
  cookie: string | undefined;
  csrf: string | undefined;
  constructor(private readonly h: Harness) {}

  async send(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const all: Record<string, string> = { ...(method === 'GET' ? {} : { origin: ORIGIN, 'sec-fetch-site': 'same-origin' }), ...headers };
    if (this.cookie) all.cookie = this.cookie;
    if (this.csrf && method !== 'GET') all['x-csrf-token'] ??= this.csrf;
    if (body !== undefined) all['content-type'] = 'application/json';
    const res = await this.h.fetch(url, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
    const set = res.headers.get('set-cookie');
    if (set) {
      const pair = set.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return res;
  }

  async signIn(username: string, password: string): Promise<Response> {
    const res = await this.send('POST', '/bff/sign-in', { username, password });
    if (res.ok) this.csrf = ((await res.clone().json()) as SessionInfo).csrf_token;
    return res;
  }
}
