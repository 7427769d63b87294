/** A fresh PostgreSQL database per test, created beside the one TEST_DATABASE_URL names. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `zd_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The SECRETS_KEY every test node on PostgreSQL shares (DESIGN.md §17: every node needs the same key). */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');
