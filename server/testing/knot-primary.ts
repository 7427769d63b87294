/**
 * A real Knot DNS (knotd) as a hidden primary that zonedeck follows as a secondary: zones from
 * master files, a journal (so it answers IXFR), transfers open to 127.0.0.1 (signed with a key when
 * the zone names one), NOTIFY sent to zonedeck, and changes made as its operator would (knotc).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { daemonPath } from './daemons';
import { eventually, freePort } from './test-server';

const run = promisify(execFile);

export interface PrimaryZone {
  name: string;
  /** The zone's master file. */
  file: string;
  /** A TSIG key (hmac-sha256) every transfer and NOTIFY of the zone is signed with. */
  key?: { name: string; secret: string };
  /** Knot signs the zone itself (its default policy: ECDSA P-256, NSEC). */
  signed?: boolean;
  /** A member of this catalog zone (RFC 9432), which Knot generates. */
  catalog?: string;
}

export class KnotPrimary {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-knot-primary-'));
  private child?: ChildProcess;
  output = '';

  private constructor(readonly port: number) {}

  /** Starts knotd serving `zones`, sending NOTIFY to zonedeck's DNS port; resolves once it answers the first zone. */
  static async start(zones: readonly PrimaryZone[], zonedeckPort: number): Promise<KnotPrimary> {
    const knot = new KnotPrimary(await freePort());
    await knot.launch(zones, zonedeckPort);
    return knot;
  }

  get conf(): string {
    return path.join(this.dir, 'knot.conf');
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Starts knotd again with other zones (a catalog that lists fewer members, say), on the same port. */
  async restart(zones: readonly PrimaryZone[], zonedeckPort: number): Promise<void> {
    await this.stop();
    await this.launch(zones, zonedeckPort);
  }

  /** Writes the configuration, starts knotd, and waits until it answers the first zone's SOA. */
  private async launch(zones: readonly PrimaryZone[], zonedeckPort: number): Promise<void> {
    const keys = [...new Map(zones.filter((z) => z.key).map((z) => [z.key!.name, z.key!])).values()];
    const keyed = (z: PrimaryZone) => (z.key ? `-${z.key.name}` : '');
    const catalogs = [...new Set(zones.flatMap((z) => (z.catalog ? [z.catalog] : [])))];
    for (const z of zones) fs.writeFileSync(path.join(this.dir, `${z.name}.zone`), z.file);
    const conf = [
      `server:\n    rundir: "${this.dir}"\n    listen: 127.0.0.1@${this.port}`,
      `log:\n  - target: stdout\n    any: info`,
      `database:\n    storage: "${this.dir}"`,
      keys.length ? `key:\n${keys.map((k) => `  - id: ${k.name}\n    algorithm: hmac-sha256\n    secret: ${k.secret}`).join('\n')}` : '',
      `remote:\n  - id: zonedeck\n    address: 127.0.0.1@${zonedeckPort}\n${keys.map((k) => `  - id: zonedeck-${k.name}\n    address: 127.0.0.1@${zonedeckPort}\n    key: ${k.name}`).join('\n')}`,
      `acl:\n  - id: transfer\n    address: 127.0.0.1\n    action: transfer\n${keys.map((k) => `  - id: transfer-${k.name}\n    address: 127.0.0.1\n    key: ${k.name}\n    action: transfer`).join('\n')}`,
      `template:\n  - id: default\n    storage: "${this.dir}"\n    zonefile-sync: -1\n    journal-content: changes\n    serial-policy: increment`,
      `zone:\n${zones.map((z) => `  - domain: ${z.name}\n    file: ${z.name}.zone\n    notify: zonedeck${keyed(z)}\n    acl: transfer${keyed(z)}${z.signed ? '\n    dnssec-signing: on' : ''}${z.catalog ? `\n    catalog-role: member\n    catalog-zone: ${z.catalog}` : ''}`).join('\n')}`,
      ...catalogs.map((c) => `  - domain: ${c}\n    catalog-role: generate\n    serial-policy: unixtime\n    acl: transfer`),
    ];
    fs.writeFileSync(this.conf, `${conf.filter(Boolean).join('\n')}\n`);
    this.child = spawn(daemonPath('knotd', 'knot'), ['-c', this.conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (d) => (this.output += d));
    this.child.stderr!.on('data', (d) => (this.output += d));
    const soa = () =>
      run('dig', ['@127.0.0.1', '-p', String(this.port), '+short', zones[0]!.name, 'SOA']).then(
        (r) => r.stdout.trim(),
        () => '',
      );
    if (!(await eventually(async () => (await soa()) !== '', 100, 100))) throw new Error(`knotd did not start:\n${this.output}`);
  }

  /** Changes a zone as its operator would (knotc zone-begin/set/commit): a new serial, journaled, NOTIFY sent. Each `rr` is one record's words. */
  async set(zone: string, ...rr: string[]): Promise<void> {
    await this.change(zone, [rr]);
  }

  /** Several records added in one change (one new serial). */
  async change(zone: string, records: readonly string[][]): Promise<void> {
    const knotc = daemonPath('knotc', 'knot');
    await run(knotc, ['-c', this.conf, 'zone-begin', zone]);
    for (const rr of records) await run(knotc, ['-c', this.conf, 'zone-set', zone, ...rr]);
    await run(knotc, ['-c', this.conf, 'zone-commit', zone]);
  }

  /** Stops knotd (the primary goes away); `remove` also deletes its files. */
  async stop(remove = false): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((r) => this.child!.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    if (remove) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A small zone as a hidden primary would hold it: apex NS elsewhere, MX, TXT, a wildcard, a delegation with glue. */
export const primaryZoneFile = (origin: string, serial: number, timers = '3600 600 86400 300') => `$ORIGIN ${origin}.
$TTL 300
@ 300 IN SOA ns.hidden-primary.example. hostmaster.hidden-primary.example. ${serial} ${timers}
@ IN NS ns1.public.example.
@ IN NS ns2.public.example.
@ IN MX 10 mail
@ IN TXT "v=spf1 -all"
www IN A 192.0.2.10
www IN AAAA 2001:db8::10
mail IN A 192.0.2.25
*.apps IN A 192.0.2.30
sub IN NS ns.sub.${origin}.
ns.sub IN A 192.0.2.53
`;
