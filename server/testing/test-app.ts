/** An in-memory app over a real SQLite file in a temp dir, with users and tokens, for API tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app';
import type { BffOptions } from '../bff';
import { loadConfig, type Config } from '../config';
import type { NodeBindings } from '../http/http-server';
import { createLogger } from '../log';
import { servicesFor, type Services } from '../services';
import { hashPassword } from '../services/identity/secrets';
import { openStore } from '../store/open';
import type { Store } from '../store/types';
import { createPostgresDatabase, TEST_SECRETS_KEY } from './postgres-database';

export interface TestApp {
  services: Services;
  /**
   * The store with its writers, for a test to set up what no service makes (a zone signed 11 days
   * ago, an event from last year, a store closed under the app). The app itself, like every layer
   * above the services, gets `services.store`, which only reads.
   */
  forge: Store;
  config: Config;
  dir: string;
  /** `address`: the client address the request comes from, as a socket would report it (default: none, as for in-process calls). */
  request(method: string, url: string, opts?: { token?: string | null; body?: unknown; raw?: BodyInit; headers?: Record<string, string>; address?: string }): Promise<Response>;
  /** Creates a user with a token; returns the token. */
  user(name: string): Promise<string>;
  /** The app's own handler, for a test that serves it on a real socket (server/http/http-server.ts). */
  fetch(req: Request, env?: NodeBindings): Promise<Response>;
  close(): Promise<void>;
}

let passwordHash: Promise<string> | undefined;

/** `bff`: options of the dashboard's backend (e.g. a sign-in throttle whose delays a test cannot outlast). */
export async function createTestApp(env: Record<string, string> = {}, bff?: BffOptions): Promise<TestApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-test-'));
  // The "postgres" test project (vitest.config.ts) runs the same tests on PostgreSQL, each in a fresh database.
  const pg = process.env.ZONEDECK_TEST_POSTGRES ? await createPostgresDatabase(process.env.ZONEDECK_TEST_POSTGRES, { reusable: true }) : undefined;
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_TOKEN: 'off', RATE_LIMIT_ADDRESS: 'off', ...(pg ? { DATABASE_URL: pg.url, SECRETS_KEY: TEST_SECRETS_KEY } : {}), ...env });
  const store = await openStore(config);
  const services = servicesFor(store, config);
  const app = buildApp({ services, config, log: createLogger('silent'), bff });
  let defaultToken: string | null = null;
  return {
    services,
    forge: store,
    config,
    dir,
    async request(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      const token = opts.token === undefined ? defaultToken : opts.token;
      if (token) headers.authorization = `Bearer ${token}`;
      let body: BodyInit | undefined = opts.raw;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const init: RequestInit & { duplex?: string } = { method, headers, body };
      if (body instanceof ReadableStream) init.duplex = 'half';
      const env = opts.address === undefined ? undefined : { incoming: { socket: { remoteAddress: opts.address } } };
      return app.request(`http://localhost${url}`, init, env);
    },
    fetch: async (req, env) => app.fetch(req, env),
    async user(name) {
      // The users' password is password123; its hash is made once per test file, not per user.
      passwordHash ??= hashPassword('password123');
      const user = await store.users.insert({ username: name, password_hash: await passwordHash, created_at: new Date().toISOString() });
      const { token } = await services.accounts.createToken(user.id, 'test');
      defaultToken ??= token;
      return token;
    },
    async close() {
      await store.close();
      await pg?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
