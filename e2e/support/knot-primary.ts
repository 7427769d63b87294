/**
 * A real Knot serving one small zone on 127.0.0.1, as the primary a secondary zone follows. It
 * sends no NOTIFY, so a test sees a change only when it asks ("Retrieve now"). Changes are made
 * as Knot's operator would (knotc zone-begin/set/commit), journaled, so Knot answers IXFR.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { daemonPath } from '../../server/testing/daemons';
import { eventually, freePort } from '../../server/testing/test-server';

const run = promisify(execFile);

const zoneFile = (origin: string) => `$ORIGIN ${origin}.
$TTL 300
@ 300 IN SOA ns.primary.example. hostmaster.primary.example. 1 3600 600 86400 300
@ IN NS ns1.public.example.
www IN A 192.0.2.10
mail IN A 192.0.2.25
`;

export class KnotPrimary {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zonedeck-e2e-knot-'));
  private child?: ChildProcess;
  private output = '';

  private constructor(
    readonly zone: string,
    readonly port: number,
  ) {}

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  private get conf(): string {
    return path.join(this.dir, 'knot.conf');
  }

  /** Starts Knot with `zone` at serial 1 and waits until it answers for it. */
  static async start(zone: string): Promise<KnotPrimary> {
    const knot = new KnotPrimary(zone, await freePort());
    fs.writeFileSync(path.join(knot.dir, `${zone}.zone`), zoneFile(zone));
    fs.writeFileSync(
      knot.conf,
      `server:
    rundir: "${knot.dir}"
    listen: 127.0.0.1@${knot.port}
log:
  - target: stdout
    any: info
database:
    storage: "${knot.dir}"
acl:
  - id: transfer
    address: 127.0.0.1
    action: transfer
template:
  - id: default
    storage: "${knot.dir}"
    zonefile-sync: -1
    journal-content: changes
    serial-policy: increment
zone:
  - domain: ${zone}
    file: ${zone}.zone
    acl: transfer
`,
    );
    knot.child = spawn(daemonPath('knotd', 'knot'), ['-c', knot.conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    knot.child.stdout!.on('data', (d) => (knot.output += d));
    knot.child.stderr!.on('data', (d) => (knot.output += d));
    const soa = () =>
      run('dig', ['@127.0.0.1', '-p', String(knot.port), '+short', zone, 'SOA']).then(
        (r) => r.stdout,
        () => '',
      );
    if (!(await eventually(async () => (await soa()).includes(' 1 '), 100, 100))) {
      await knot.stop();
      throw new Error(`Knot did not serve ${zone}:\n${knot.output}`);
    }
    return knot;
  }

  /** Sets records (`name ttl type data`) in one transaction: a new serial. */
  async set(...rr: string[]): Promise<void> {
    const knotc = daemonPath('knotc', 'knot');
    await run(knotc, ['-c', this.conf, 'zone-begin', this.zone]);
    await run(knotc, ['-c', this.conf, 'zone-set', this.zone, ...rr]);
    await run(knotc, ['-c', this.conf, 'zone-commit', this.zone]);
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((r) => this.child!.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
