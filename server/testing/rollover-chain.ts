/**
 * A rollover run under a validating eye: a zonedeck child with short TTLs (60 s) below a local signed
 * root and parent (bind-chain.ts), its DS kept by a registrar's scanner that reads the child's
 * validated CDS (cds-scanner.ts), and delv asking every kind of answer of the zone through the chain
 * every second (validation-probe.ts) while the rollover runs to its end by itself.
 */
import { expect } from 'vitest';
import { BindChain } from './bind-chain';
import { cdsScanner, type CdsScanner } from './cds-scanner';
import { delv } from './delv';
import { freePort, startServer, type RunningServer } from './test-server';
import { validationProbe, type ProbeQuestion, type ProbeResult } from './validation-probe';
import { waitUntil } from './wait-until';

export interface RolloverChain {
  chain: BindChain;
  zonedeck: RunningServer;
  scanner: CdsScanner;
  child: string;
  /** The zone's DNSSEC view (GET /domains/:name/dnssec). */
  view(): Promise<{ keys: { key_tag: number; algorithm: number; role: string; state: string }[]; rollover: { step: string } | null }>;
  stop(): Promise<void>;
}

/** Every RRset type of the zone, a NODATA and a nonexistent name: what the probe asks each second. */
export const questions = (child: string): ProbeQuestion[] => [
  { name: child, type: 'SOA' },
  { name: child, type: 'DNSKEY' },
  { name: child, type: 'NS' },
  { name: child, type: 'CDS' },
  { name: child, type: 'MX' },
  { name: `www.${child}`, type: 'A' },
  { name: `www.${child}`, type: 'AAAA' },
  { name: `www.${child}`, type: 'TXT' },
  { name: `nothing-here.${child}`, type: 'A' },
];

export const described = (r: ProbeResult) => r.failures.map((f) => `${f.at.toISOString()} ${f.name} ${f.type}:\n${f.output}`);

/** The tree, a signed child (made signed: an unsigned answer cached at its creation would fail validation for its TTL), the scanner, and a first DS in place. */
export async function startRolloverChain(child: string, policy: Record<string, unknown> = {}): Promise<RolloverChain> {
  const dnsPort = await freePort();
  const chain = await BindChain.start({ child, childServer: { host: '127.0.0.1', port: dnsPort } });
  const zonedeck = await startServer({ DNS_PORT: String(dnsPort), RESOLVER: `127.0.0.1:${chain.resolver.port}`, DNSSEC_PROPAGATION_S: '1' });
  const created = await zonedeck.api('POST', '/domains', { name: child, dnssec_enabled: true, minimum_ttl: 60 });
  expect(created.status).toBe(201);
  if (Object.keys(policy).length > 0) expect((await zonedeck.api('PUT', `/domains/${child}`, { dnssec_policy: policy })).status).toBe(200);
  for (const r of [
    { name: 'www', record_type: 'A', content: '192.0.2.80', ttl: '60' },
    { name: 'www', record_type: 'AAAA', content: '2001:db8::80', ttl: '60' },
    { name: '@', record_type: 'MX', content: '10 mail.example.net.', ttl: '60' },
  ])
    expect((await zonedeck.api('POST', `/domains/${child}/records`, r)).status).toBe(200);
  const scanner = cdsScanner(chain);
  await waitUntil('the scanner copying the CDS to the parent', () => scanner.events.some((e) => e.action === 'set'), { limitMs: 60_000 });
  await waitUntil('delv validating the child from the root', async () => (await delv(chain.trustAnchorFile, chain.resolver, child, 'DNSKEY')).validated, { limitMs: 90_000 });
  return {
    chain,
    zonedeck,
    scanner,
    child,
    view: async () => (await (await zonedeck.api('GET', `/domains/${child}/dnssec`)).json()) as Awaited<ReturnType<RolloverChain['view']>>,
    async stop() {
      try {
        await scanner.stop();
      } finally {
        await zonedeck.stop();
        await chain.stop();
      }
    },
  };
}

/** Runs the probe while `start` begins a rollover, until the zone's rollover is over; the probe's result and the steps seen. */
export async function probedRollover(r: RolloverChain, start: () => Promise<void>, limitMs: number): Promise<{ result: ProbeResult; steps: string[] }> {
  const probe = validationProbe(r.chain, questions(r.child));
  await waitUntil('a first round of the probe', () => probe.result.asked >= questions(r.child).length, { limitMs: 60_000 });
  await start();
  const steps: string[] = [];
  await waitUntil(
    'the rollover finishing',
    async () => {
      const step = (await r.view()).rollover?.step;
      // A policy change starts the rollover at the driver's next look (a second or two): done counts only after a step.
      if (step === undefined) return steps.length > 0;
      if (steps.at(-1) !== step) steps.push(step);
      return false;
    },
    { limitMs, everyMs: 1000 },
  );
  // A few rounds more once the old keys are gone: caches now hold only what came after.
  const asked = probe.result.asked;
  await waitUntil('three more rounds of the probe', () => probe.result.asked >= asked + 3 * questions(r.child).length, { limitMs: 60_000 });
  return { result: await probe.stop(), steps };
}
