/** `npm run bench`: every benchmark, one table with the reference beside each figure. Never fails on a number. */
import { existsSync } from 'node:fs';
import { printTable, type Row } from './table';
import { buildServer } from '../scripts/build-server.mjs';

type Bench = { name: string; file: string; fn: string };
const BENCHES: Bench[] = [
  { name: 'API', file: './api.ts', fn: 'benchApi' },
  { name: 'History', file: './history.ts', fn: 'benchHistory' },
  { name: 'Search', file: './search.ts', fn: 'benchSearch' },
  { name: 'Zonefiles', file: './zone-files.ts', fn: 'benchZoneFiles' },
  { name: 'Trust', file: './bombs.ts', fn: 'benchBombs' },
  { name: 'Templates', file: './templates.ts', fn: 'benchTemplates' },
  { name: 'DNS', file: './dns.ts', fn: 'benchDns' },
  { name: 'NSEC3', file: './nsec3.ts', fn: 'benchNsec3' },
  { name: 'Signing', file: './signing.ts', fn: 'benchSigning' },
  { name: 'Pools', file: './pools.ts', fn: 'benchPools' },
  { name: 'Dashboard', file: './web.ts', fn: 'benchWeb' },
  { name: 'Load', file: './load.ts', fn: 'benchLoad' },
  { name: 'Overload', file: './overload.ts', fn: 'benchOverload' },
  { name: 'Nodes', file: './nodes.ts', fn: 'benchNodes' },
  { name: 'Updates', file: './update.ts', fn: 'benchUpdates' },
  { name: 'Defences', file: './defences.ts', fn: 'benchDefences' },
  { name: 'Analytics', file: './analytics.ts', fn: 'benchAnalytics' },
  { name: 'Index', file: './index-memory.ts', fn: 'benchIndexMemory' },
  { name: 'Startup', file: './startup.ts', fn: 'benchStartup' },
  { name: 'Secondary', file: './secondary.ts', fn: 'benchSecondary' },
  { name: 'Peers', file: './peers.ts', fn: 'benchPeers' },
];

// The servers measured are the build `npm start` runs, of the sources as they are now.
await buildServer();

const only = process.argv.slice(2);
const rows: Row[] = [];
for (const b of BENCHES) {
  if (only.length && !only.includes(b.name.toLowerCase())) continue;
  if (!existsSync(new URL(b.file, import.meta.url))) continue;
  process.stderr.write(`running ${b.name} benchmarks…\n`);
  try {
    const mod = await import(b.file);
    rows.push(...((await mod[b.fn]()) as Row[]));
  } catch (e) {
    rows.push({ name: `${b.name}: failed to run`, value: e instanceof Error ? e.message.split('\n')[0]! : String(e), reference: '—', ratio: '—' });
  }
}
printTable(rows);
process.exit(0);
