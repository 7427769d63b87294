/**
 * Several real zonedeck processes on one fresh PostgreSQL database, for the
 * many-nodes tests and benchmark: each node with its own HTTP and DNS port, and API tokens
 * minted straight in the shared database.
 */
import fs from 'node:fs';
import { loadConfig } from '../config';
import { servicesFor, type Services } from '../services';
import { openPostgresStore } from '../store/postgres/postgres';
import type { Store } from '../store/types';
import { createPostgresDatabase, TEST_SECRETS_KEY } from './postgres-database';
import { keyFromBase64, SecretBox } from '../store/secret-box';
import { startServer, type ServerProcess } from './server-process';

/** The admin PostgreSQL URL, or an error that says how to provide one (never a silent skip). */
export function testDatabaseUrl(what: string): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      `${what} need PostgreSQL: set TEST_DATABASE_URL=postgres://user:password@host:port/database ` + '(a role that may create databases; `npm test` starts a private cluster and sets it)',
    );
  }
  return url;
}

export interface Node {
  proc: ServerProcess;
  url: string;
  dns: number;
  /** Every JSON log line so far. */
  logs(): Array<Record<string, unknown>>;
}

export interface Cluster {
  /** The database every node uses. */
  databaseUrl: string;
  nodes: Node[];
  /** Services over the shared database, in this process (the test's own connection). */
  services: Services;
  store: Store;
  /** A new API token of the admin user. */
  token(): Promise<string>;
  stop(): Promise<void>;
}

/** `opts.envs`: settings of each node besides `env` (its own source address, say). */
export async function startCluster(adminUrl: string, count: number, env: Record<string, string> = {}, opts: { cpus?: number[]; envs?: Record<string, string>[] } = {}): Promise<Cluster> {
  const db = await createPostgresDatabase(adminUrl);
  const nodes: Node[] = [];
  let store: Store | undefined;
  const stop = async () => {
    for (const n of nodes) {
      await n.proc.stop();
      fs.rmSync(n.proc.dataDir, { recursive: true, force: true });
    }
    await store?.close();
    await db.drop();
  };
  try {
    // One after the other: the first creates the schema and the admin user.
    for (let i = 0; i < count; i++) {
      const proc = await startServer({ DATABASE_URL: db.url, SECRETS_KEY: TEST_SECRETS_KEY, DNS_PORT: '0', ...env, ...opts.envs?.[i] }, undefined, { cpu: opts.cpus?.[i] });
      const parsed = () =>
        proc.lines.flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        });
      nodes.push({ proc, url: proc.url, dns: proc.dnsPort!, logs: parsed });
    }
    store = await openPostgresStore(db.url, new SecretBox(keyFromBase64(TEST_SECRETS_KEY)));
    const config = loadConfig({ DATABASE_URL: db.url, SECRETS_KEY: TEST_SECRETS_KEY, LOG_LEVEL: 'silent', ...env });
    const services = servicesFor(store, config);
    const admin = (await store.users.byUsername('admin'))!;
    return {
      databaseUrl: db.url,
      nodes,
      services,
      store,
      token: async () => (await services.accounts.createToken(admin.id, 'cluster test')).token,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** Calls a node's API with a token. */
export function api(node: Node, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${node.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
