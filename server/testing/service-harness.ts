/**
 * The services over a real SQLite file in a temp dir, without HTTP: for the fast tests of the
 * rules layer. `forge` is the store with its writers, for what no service makes (a user inserted
 * without hashing a password, a row as another node left it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../config';
import { servicesFor, type Services } from '../services';
import type { TeamActor } from '../services/identity/teams';
import { openStore } from '../store/open';
import type { Store, UserRow } from '../store/types';

export interface ServiceHarness {
  services: Services;
  forge: Store;
  config: Config;
  dir: string;
  /** A user (an administrator with `admin`), inserted as a row: no password to hash. */
  user(name: string, admin?: boolean): Promise<UserRow>;
  /** The user as the actor of a team's or an account's act, through the API. */
  actor(user: UserRow): TeamActor & { userId: number };
  close(): Promise<void>;
}

/** `env`: configuration as the environment gives it (MAX_ZONES_PER_USER, CATALOG_ZONE, …). */
export async function serviceHarness(env: Record<string, string> = {}): Promise<ServiceHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-services-'));
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ...env });
  const forge = await openStore(config);
  const services = servicesFor(forge, config);
  return {
    services,
    forge,
    config,
    dir,
    user: (name, admin = false) => forge.users.insert({ username: name, password_hash: 'not a hash: no sign-in', created_at: new Date().toISOString(), is_admin: admin }),
    actor: (user) => ({ user, userId: user.id, username: user.username, credential: 'session' }),
    async close() {
      await forge.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
