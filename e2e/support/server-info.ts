/** What the global setup tells the tests about this run's server. */
import fs from 'node:fs';

export interface ServerInfo {
  url: string;
  dataDir: string;
  pid: number;
  adminPassword: string;
  dnsPort: number | null;
}

export function serverInfo(): ServerInfo {
  const file = process.env.ZONEDECK_E2E_SERVER;
  if (!file) throw new Error('ZONEDECK_E2E_SERVER is not set: run the tests through `npx playwright test` (global setup starts the server)');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ServerInfo;
}
