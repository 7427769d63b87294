/**
 * Once per vitest run: build the server, so that the tests which start it as a process
 * (startServer) run what `npm start` runs, from the sources as they are now; and, with a
 * PostgreSQL cluster, drop the test databases of this run at its end.
 */
import { randomBytes } from 'node:crypto';
import { buildServer } from '../../scripts/build-server.mjs';

export default async function setup(): Promise<() => Promise<void>> {
  // Before any worker starts, so that every worker's databases carry this run's id.
  process.env.ZONEDECK_TEST_RUN ??= randomBytes(3).toString('hex');
  await buildServer();
  return async () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.ZONEDECK_TEST_POSTGRES;
    if (!adminUrl) return;
    const { dropRunDatabases } = await import('./postgres-database');
    await dropRunDatabases(adminUrl);
  };
}
