/**
 * Once per run of the whole vitest suite (not of the fast tier, which starts no server): build the
 * server, so that the tests which start it as a process (startServer) run what `npm start` runs,
 * from the sources as they are now.
 */
import { buildServer } from '../../scripts/build-server.mjs';

export default async function setup(): Promise<void> {
  await buildServer();
}
