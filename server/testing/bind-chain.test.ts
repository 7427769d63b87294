/**
 * The signed tree of the rollover tests, proved on a real zonedeck child: a scanner copies the
 * child's CDS into the parent's DS, after which a validator (delv, with only the root's key) proves
 * every answer of the child through a resolver that does not validate itself, as does the validating
 * resolver the probe asks; and the probe does see failures when the parent's DS is wrong, so that
 * zero failures in a rollover test mean something. Real processes only: three named, zonedeck,
 * delv, dig, nsupdate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BindChain } from './bind-chain';
import { cdsScanner, type CdsScanner } from './cds-scanner';
import { delv } from './delv';
import { dig } from './named-process';
import { freePort, startServer, type RunningServer } from './test-server';
import { validationProbe, type ProbeQuestion, type ProbeResult } from './validation-probe';
import { waitUntil } from './wait-until';

const CHILD = 'zone.example';
let chain: BindChain | undefined;
let zonedeck: RunningServer | undefined;
let scanner: CdsScanner | undefined;
/** The child's DS as zonedeck's API gives it, "tag algorithm digest-type DIGEST". */
let childDs: string[];

const QUESTIONS: ProbeQuestion[] = [
  { name: CHILD, type: 'SOA' },
  { name: CHILD, type: 'DNSKEY' },
  { name: CHILD, type: 'NS' },
  { name: `www.${CHILD}`, type: 'A' },
  { name: `www.${CHILD}`, type: 'TXT' },
  { name: `nothing-here.${CHILD}`, type: 'A' },
];

/** The probe's failures, readable in an assertion's message. */
const described = (r: ProbeResult) => r.failures.map((f) => `${f.at.toISOString()} ${f.name} ${f.type}:\n${f.output}`);

beforeAll(async () => {
  const dnsPort = await freePort();
  chain = await BindChain.start({ child: CHILD, childServer: { host: '127.0.0.1', port: dnsPort } });
  zonedeck = await startServer({ DNS_PORT: String(dnsPort), RESOLVER: `127.0.0.1:${chain.resolver.port}` });
  // Signed from its creation: zonedeck asks the resolver about its new zone at once (is it
  // delegated?), and an unsigned answer cached then would fail validation for its whole TTL.
  const created = await zonedeck.api('POST', '/domains', { name: CHILD, dnssec_enabled: true });
  expect(created.status).toBe(201);
  const { ds_records } = (await created.json()) as { ds_records: Array<{ key_tag: number; algorithm: number; digest_type: number; digest: string }> };
  childDs = ds_records.map((d) => `${d.key_tag} ${d.algorithm} ${d.digest_type} ${d.digest.toUpperCase()}`);
  expect((await zonedeck.api('POST', `/domains/${CHILD}/records`, { name: 'www', record_type: 'A', content: '192.0.2.80' })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  // Every process goes, even when the scanner's last scan failed (its stop then throws that).
  try {
    await scanner?.stop();
  } finally {
    await zonedeck?.stop();
    await chain?.stop();
  }
});

describe('a signed zonedeck child under a local signed root and parent', () => {
  it('gets its DS from its CDS, after which every answer validates from the root', async () => {
    expect(await chain!.parentDs()).toEqual([]);
    scanner = cdsScanner(chain!);
    // The DS the parent ends up with is the one zonedeck's API tells an operator to give the registrar.
    await waitUntil('the scanner copying the CDS to the parent', () => scanner!.events.some((e) => e.action === 'set'), { limitMs: 60_000 });
    expect(scanner.events[0]).toMatchObject({ action: 'set', cds: childDs });
    expect(await chain!.parentDs()).toEqual(childDs);
    // The resolver may still hold the parent's earlier "no DS" for its TTL.
    await waitUntil('delv validating the child from the root', async () => (await delv(chain!.trustAnchorFile, chain!.resolver, CHILD, 'DNSKEY')).validated, { limitMs: 60_000 });

    const probe = validationProbe(chain!, QUESTIONS);
    await waitUntil('three rounds of the probe', () => probe.result.asked >= 3 * QUESTIONS.length, { limitMs: 60_000 });
    const result = await probe.stop();
    expect(described(result)).toEqual([]);

    // The resolver does not validate (no AD), the validator does: what delv proves is its own work.
    const viaResolver = await dig(chain!.resolver.port, '+dnssec', `www.${CHILD}`, 'A');
    expect(viaResolver).toMatch(/status: NOERROR/);
    expect(viaResolver).toMatch(/192\.0\.2\.80/);
    expect(viaResolver).not.toMatch(/flags:[^;]* ad[ ;]/);
    const validated = await dig(chain!.validator.port, '+dnssec', `www.${CHILD}`, 'A');
    expect(validated).toMatch(/flags:[^;]* ad[ ;]/);
    const proved = await delv(chain!.trustAnchorFile, chain!.resolver, `www.${CHILD}`, 'A');
    expect(proved.output).toMatch(/^; fully validated$/m);
    expect(proved.output).toMatch(/192\.0\.2\.80/);
  }, 180_000);

  it('sees validation fail when the parent holds a wrong DS, and the scanner does not take a CDS it cannot validate', async () => {
    // Stopped, or it would put the good DS back while the resolver still holds it (and the CDS validates).
    await scanner!.stop();
    const good = await chain!.parentDs();
    const [tag, algorithm, digestType, digest] = good[0]!.split(' ');
    const bogus = `${(Number(tag) + 1) % 65536} ${algorithm} ${digestType} ${digest!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`;
    await chain!.setDs([bogus]);

    const probe = validationProbe(chain!, [{ name: `www.${CHILD}`, type: 'A' }]);
    await waitUntil('the probe recording a failure', () => probe.result.failures.length > 0, { limitMs: 60_000 });
    const result = await probe.stop();
    expect(result.failures[0]).toMatchObject({ name: `www.${CHILD}`, type: 'A' });
    // The validating resolver refuses the answer it cannot prove; delv, asked then, cannot prove it either.
    expect(result.failures[0]!.output).toMatch(/^validator: SERVFAIL/);
    expect(result.failures[0]!.output).not.toMatch(/fully validated/);

    // The resolver now has the wrong DS too: a scanner started again finds the CDS unprovable and leaves the DS alone.
    scanner = cdsScanner(chain!);
    await waitUntil('the scanner refusing the unprovable CDS', () => scanner!.events.some((e) => e.action === 'refused'), { limitMs: 60_000 });
    expect(await chain!.parentDs()).toEqual([bogus]);
  }, 180_000);
});
