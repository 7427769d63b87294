/**
 * A local signed DNS tree above a zonedeck child zone, as the real Internet would hold it, for the
 * tests of DNSSEC rollovers: a signed root ".", a signed parent (the child's parent, "example."
 * for "zone.example"), and a recursive resolver that a validator (`delv`, with the root's key as
 * its only trust anchor) asks through.
 *
 * Two BIND instances, because one named cannot be both: an authoritative server for the root and
 * the parent (A) answers DS and DNSKEY queries with AA and its own signatures, while a resolver
 * (R) caches answers by their TTLs, which is what makes a rollover hard (an old DS or DNSKEY
 * still in a cache). A signs both zones itself (dnssec-policy, one CSK each, short TTLs); both are
 * dynamic so that the harness can put the parent's DS in the root after start (the parent's key is
 * made then) and change the child's DS set in the parent as a registrar would (nsupdate), which A
 * signs in the same update.
 *
 * R forwards everything to A ("forward only"), except the child zone, which it forwards to
 * zonedeck. A DS query belongs to the parent side of a zone cut, and BIND picks the forwarders of
 * a DS query by the parent's name, so R asks A for the child's DS and zonedeck for the rest of
 * the child. R does not validate (delv does, through it), so an answer's AD bit means nothing here.
 *
 * A third named, V, is the validating resolver an end user sits behind: the root's key as its only
 * trust anchor, everything forwarded to R, its own cache. The probe of the rollover tests asks V
 * (validation-probe.ts): a question costs a datagram, where a delv process costs ~0.1 s of CPU on a
 * small machine, and nine questions a second for minutes took a core from the rest of the suite.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { daemonPath } from './daemons';
import { dsRecordsIn, sameDsSet, type HostPort } from './delv';
import { dig, namedOptions, startNamed, type NamedProcess } from './named-process';
import { waitUntil } from './wait-until';

const run = promisify(execFile);

/** The name server of the root and the parent, a name in the root zone itself (its glue). */
const NS = 'ns.bind-chain.';
/** The TTLs of A's zones other than the DS: short, so that nothing a test changes stays cached long. */
const ZONE_TTL = 30;

export interface BindChainOptions {
  /** The child zone zonedeck serves, e.g. "zone.example": at least two labels, its parent is signed here. */
  child: string;
  /** zonedeck's DNS server, where R forwards the child zone (the parent's glue names its host). */
  childServer: HostPort;
  /** The TTL of the child's DS set in the parent, and of the parent's proof that there is none (default 5 s). */
  dsTtl?: number;
}

/** The programs the harness runs besides named, and the Debian package of each. */
const TOOLS = [
  ['dig', 'bind9-dnsutils'],
  ['delv', 'bind9-dnsutils'],
  ['nsupdate', 'bind9-dnsutils'],
  ['dnssec-dsfromkey', 'bind9-utils'],
] as const;

const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`);

/** A's configuration: the root and the parent, authoritative only, signed and updatable from 127.0.0.1. */
const authoritativeConfig = (dir: string, port: number, parent: string, maxTtl: number) => `${namedOptions(dir, port, ['recursion no;', 'dnssec-validation no;'])}
dnssec-policy "bind-chain" {
  keys { csk key-directory lifetime unlimited algorithm ecdsap256sha256; };
  dnskey-ttl ${ZONE_TTL};
  max-zone-ttl ${maxTtl};
  zone-propagation-delay 1;
  publish-safety 1;
  retire-safety 1;
  parent-ds-ttl ${ZONE_TTL};
  parent-propagation-delay 1;
};
${['.', parent].map((zone) => `zone "${zone}" { type primary; file "${zone === '.' ? 'root' : parent}.db"; dnssec-policy "bind-chain"; inline-signing no; key-directory "keys"; allow-update { 127.0.0.1; }; };`).join('\n')}
`;

/** R's configuration: a caching resolver forwarding the child to zonedeck and everything else to A. */
const resolverConfig = (dir: string, port: number, aPort: number, child: string, childServer: HostPort) => `${namedOptions(dir, port, [
  'recursion yes;',
  'allow-query { 127.0.0.1; };',
  'allow-recursion { 127.0.0.1; };',
  'dnssec-validation no;',
  'qname-minimization disabled;',
  `forwarders { 127.0.0.1 port ${aPort}; };`,
  'forward only;',
])}
zone "${child}" { type forward; forward only; forwarders { ${childServer.host} port ${childServer.port}; }; };
`;

/** V's configuration: a validating resolver (the root's key its only anchor) forwarding everything to R. */
const validatorConfig = (dir: string, port: number, rPort: number, rootKey: string) => `${namedOptions(dir, port, [
  'recursion yes;',
  'allow-query { 127.0.0.1; };',
  'allow-recursion { 127.0.0.1; };',
  'dnssec-validation yes;',
  // Nothing kept: each answer is proven again from R's cache, as a fresh validator would.
  'max-cache-ttl 0;',
  'max-ncache-ttl 0;',
  'qname-minimization disabled;',
  `forwarders { 127.0.0.1 port ${rPort}; };`,
  'forward only;',
])}
trust-anchors { . static-key ${rootKey}; };
`;

const soa = (ncacheTtl: number) => `${ZONE_TTL} IN SOA ${NS} hostmaster.bind-chain. 1 ${ZONE_TTL} ${ZONE_TTL} 600 ${ncacheTtl}`;

export class BindChain {
  /** The recursive resolver R: point zonedeck's RESOLVER and the validator here. */
  readonly resolver: HostPort;
  /** The validating resolver V (through R): an answer it proves from the root's key carries AD. */
  readonly validator: HostPort;
  /** The authoritative server A of the root and the parent. */
  readonly authoritative: HostPort;
  /** A `delv -a` file: the root's key as the only trust anchor. */
  readonly trustAnchorFile: string;
  readonly parent: string;

  private constructor(
    readonly child: string,
    readonly dsTtl: number,
    private readonly a: NamedProcess,
    private readonly r: NamedProcess,
    private readonly v: NamedProcess,
  ) {
    this.resolver = { host: '127.0.0.1', port: r.port };
    this.validator = { host: '127.0.0.1', port: v.port };
    this.authoritative = { host: '127.0.0.1', port: a.port };
    this.trustAnchorFile = path.join(a.dir, 'root-anchor.conf');
    this.parent = child.slice(child.indexOf('.') + 1);
  }

  /** Starts A, R and V; resolves once the parent's DS is signed in the root and R and V answer through A. */
  static async start(opts: BindChainOptions): Promise<BindChain> {
    const child = opts.child.replace(/\.$/, '').toLowerCase();
    if (!child.includes('.')) throw new Error(`bind-chain: the child "${child}" needs a parent below the root`);
    const parent = child.slice(child.indexOf('.') + 1);
    const dsTtl = opts.dsTtl ?? 5;
    // Missing tools fail here, naming the package, rather than as a server that never answers.
    for (const [tool, pkg] of TOOLS) daemonPath(tool, pkg);
    const a = await startNamed({
      label: 'authoritative',
      config: (dir, port) => authoritativeConfig(dir, port, parent, Math.max(ZONE_TTL, dsTtl)),
      files: {
        'root.db': `$TTL ${ZONE_TTL}\n. ${soa(ZONE_TTL)}\n. NS ${NS}\n${NS} A 127.0.0.1\n${parent}. NS ${NS}\n`,
        [`${parent}.db`]: `$TTL ${ZONE_TTL}\n${parent}. ${soa(dsTtl)}\n${parent}. NS ${NS}\n${child}. ${dsTtl} NS ns1.${child}.\nns1.${child}. ${dsTtl} A ${opts.childServer.host}\n`,
      },
      ready: { name: parent, type: 'SOA' },
    });
    let r: NamedProcess | undefined;
    let v: NamedProcess | undefined;
    try {
      await delegateSigned(a, parent);
      const rootKey = keyOf(a, '.');
      fs.writeFileSync(path.join(a.dir, 'root-anchor.conf'), `trust-anchors {\n  . static-key ${rootKey};\n};\n`);
      r = await startNamed({
        label: 'resolver',
        config: (dir, port) => resolverConfig(dir, port, a.port, child, opts.childServer),
        ready: { name: parent, type: 'SOA' },
      });
      const rPort = r.port;
      v = await startNamed({
        label: 'validator',
        config: (dir, port) => validatorConfig(dir, port, rPort, rootKey),
        ready: { name: parent, type: 'SOA' },
      });
      return new BindChain(child, dsTtl, a, r, v);
    } catch (e) {
      await v?.stop();
      await r?.stop();
      await a.stop();
      throw e;
    }
  }

  /** The child's DS set the parent serves now (asked of A, so no cache is in the way), rdata lines. */
  async parentDs(): Promise<string[]> {
    return dsRecordsIn(await dig(this.a.port, '+norec', '+noall', '+answer', this.child, 'DS'), 'DS');
  }

  /**
   * Replaces the child's DS set in the parent (`lines` as "tag algorithm digest-type digest"; none
   * removes it, making the child insecure) with TTL dsTtl, and resolves once A serves it signed.
   */
  async setDs(lines: readonly string[]): Promise<void> {
    const want = dsRecordsIn(lines.map((l) => `${this.child}. ${this.dsTtl} IN DS ${l}`).join('\n'), 'DS');
    await nsupdate(this.a, fqdn(this.parent), [`update delete ${this.child}. DS`, ...want.map((l) => `update add ${this.child}. ${this.dsTtl} IN DS ${l}`)]);
    await waitUntil(`the parent ${this.parent} serving the DS set [${want.join(', ')}] signed`, async () => {
      const answer = await dig(this.a.port, '+norec', '+dnssec', this.child, 'DS');
      const signed = want.length === 0 ? /\sNSEC\s/.test(answer) : /\sRRSIG\s+DS\s/.test(answer);
      return signed && sameDsSet(dsRecordsIn(answer, 'DS'), want);
    });
  }

  /** What the three named logged, for a failing test's message. */
  logs(): string {
    return `--- authoritative (root, ${this.parent})\n${this.a.output()}\n--- resolver\n${this.r.output()}\n--- validator\n${this.v.output()}`;
  }

  /** Stops the three named and removes their files. */
  async stop(): Promise<void> {
    await Promise.all([this.v.stop(), this.r.stop(), this.a.stop()]);
  }
}

/** The CSK dnssec-policy made for `zone` in A's key directory, as a trust anchor's "flags protocol algorithm key". */
function keyOf(a: NamedProcess, zone: string): string {
  const keys = path.join(a.dir, 'keys');
  const prefix = zone === '.' ? 'K.+' : `K${zone}.+`;
  const file = fs.readdirSync(keys).find((f) => f.startsWith(prefix) && f.endsWith('.key'));
  if (!file) throw new Error(`bind-chain: no key of ${zone} in ${keys}`);
  const record = fs
    .readFileSync(path.join(keys, file), 'utf8')
    .split('\n')
    .find((l) => l && !l.startsWith(';'))!;
  const [flags, protocol, algorithm, ...key] = record.trim().split(/\s+/).slice(4);
  return `${flags} ${protocol} ${algorithm} "${key.join('')}"`;
}

/** Waits until A has signed both zones, then puts the parent's DS in the root (signed by A in the same update). */
async function delegateSigned(a: NamedProcess, parent: string): Promise<void> {
  for (const zone of ['.', `${parent}.`]) {
    await waitUntil(`named signing ${zone}`, async () => /\sRRSIG\s+DNSKEY\s/.test(await dig(a.port, '+norec', '+dnssec', zone, 'DNSKEY')));
  }
  const keyFile = fs.readdirSync(path.join(a.dir, 'keys')).find((f) => f.startsWith(`K${parent}.+`) && f.endsWith('.key'))!;
  const { stdout } = await run('dnssec-dsfromkey', ['-2', path.join(a.dir, 'keys', keyFile)]);
  const ds = stdout.trim().split(/\s+/).slice(3).join(' ');
  await nsupdate(a, '.', [`update add ${parent}. ${ZONE_TTL} IN DS ${ds}`]);
  await waitUntil(`the root serving ${parent}'s DS signed`, async () => /\sRRSIG\s+DS\s/.test(await dig(a.port, '+norec', '+dnssec', `${parent}.`, 'DS')));
}

/** Sends one dynamic update of `zone` to A (unsigned: A takes updates from 127.0.0.1). */
async function nsupdate(a: NamedProcess, zone: string, lines: readonly string[]): Promise<void> {
  const file = path.join(a.dir, `update-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  fs.writeFileSync(file, [`server 127.0.0.1 ${a.port}`, `zone ${zone}`, ...lines, 'send', ''].join('\n'));
  try {
    await run('nsupdate', [file]);
  } catch (e) {
    throw new Error(`nsupdate of ${zone} failed: ${(e as { stderr?: string }).stderr ?? e}\n${lines.join('\n')}`);
  } finally {
    fs.rmSync(file, { force: true });
  }
}
