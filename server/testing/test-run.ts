/**
 * Once per vitest run, in every tier: an id for the run, set before any worker starts so that
 * every worker's PostgreSQL databases carry it, and at the end, with a PostgreSQL cluster, the
 * drop of every database of this run.
 */
import { randomBytes } from 'node:crypto';

export default function setup(): () => Promise<void> {
  process.env.ZONEDECK_TEST_RUN ??= randomBytes(3).toString('hex');
  return async () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.ZONEDECK_TEST_POSTGRES;
    if (!adminUrl) return;
    const { dropRunDatabases } = await import('./postgres-database');
    await dropRunDatabases(adminUrl);
  };
}
