/**
 * What a registrar's scanner does for a child zone (RFC 7344 §4, RFC 8078): every second it asks
 * the resolver for the child's CDS, and when a CDS that validates differs from the DS set the
 * parent serves, it makes the parent's DS set the CDS set; the delete form (`0 0 0 00`) removes the
 * DS. A CDS that does not validate changes nothing (fail closed), so a broken chain stays broken
 * rather than being "repaired" from an answer anyone could have forged.
 *
 * An insecure child (no DS yet) cannot validate against the root: then the scanner accepts the CDS
 * only if it validates with itself as the child's trust anchor (its key signs the DNSKEY set that
 * signs the CDS), the self-consistency check of RFC 8078 §3 with no waiting period. A secure child's
 * CDS is asked of the chain's validating resolver (proven when it sets AD); the insecure child's,
 * with its own trust anchor, of delv.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BindChain } from './bind-chain';
import { delv, dsRecordsIn, isDeleteCds, sameDsSet } from './delv';
import { repeatEvery } from './repeat-every';
import { askValidator, cdsRecordsOf, proven, summary } from './validator-query';

export interface ScannerEvent {
  at: Date;
  /** `set`: the parent's DS set was replaced; `refused`: a CDS was seen but did not validate. */
  action: 'set' | 'refused';
  cds: string[];
  detail: string;
}

export interface CdsScanner {
  /** What the scanner did, in order. */
  events: ScannerEvent[];
  /** Stops scanning, after the scan under way; rejects if a scan failed (A refused the update, say). */
  stop(): Promise<void>;
}

/** Starts scanning the chain's child every `everyMs` (1 s). */
export function cdsScanner(chain: BindChain, opts: { everyMs?: number } = {}): CdsScanner {
  const events: ScannerEvent[] = [];
  const rounds = repeatEvery(opts.everyMs ?? 1_000, () => scanOnce(chain, events));
  return { events, stop: () => rounds.stop() };
}

/** One scan: the CDS, validated from the root (or, while the child is insecure, from itself), copied to the parent. */
async function scanOnce(chain: BindChain, events: ScannerEvent[]): Promise<void> {
  const ds = await chain.parentDs();
  if (ds.length > 0) {
    const answer = await askValidator(chain.validator, chain.child, 'CDS');
    if (!proven(answer)) return refused(events, [], summary(answer));
    return apply(chain, events, ds, cdsRecordsOf(answer!));
  }
  // Insecure: the CDS seen, then proven with itself as the child's trust anchor.
  const seen = dsRecordsIn((await delv(chain.trustAnchorFile, chain.resolver, chain.child, 'CDS')).output, 'CDS');
  if (seen.length === 0 || isDeleteCds(seen)) return;
  const anchor = path.join(path.dirname(chain.trustAnchorFile), 'child-bootstrap-anchor.conf');
  const anchors = seen.map((r) => {
    const [tag, algorithm, digestType, digest] = r.split(' ');
    return `  ${chain.child}. static-ds ${tag} ${algorithm} ${digestType} "${digest}";`;
  });
  fs.writeFileSync(anchor, `trust-anchors {\n${anchors.join('\n')}\n};\n`);
  const answer = await delv(anchor, chain.resolver, chain.child, 'CDS', chain.child);
  const cds = dsRecordsIn(answer.output, 'CDS');
  if (!answer.validated) return refused(events, cds, answer.output);
  await apply(chain, events, ds, cds);
}

/** A CDS seen but not proven: recorded once per spell of refusals (the scanner keeps refusing every second). */
function refused(events: ScannerEvent[], cds: string[], detail: string): void {
  if (events.at(-1)?.action !== 'refused') events.push({ at: new Date(), action: 'refused', cds, detail });
}

/** A proven CDS set (none: nothing asked) made the parent's DS set, unless it already is. */
async function apply(chain: BindChain, events: ScannerEvent[], ds: string[], cds: string[]): Promise<void> {
  if (cds.length === 0) return;
  const want = isDeleteCds(cds) ? [] : cds;
  if (sameDsSet(want, ds)) return;
  await chain.setDs(want);
  events.push({ at: new Date(), action: 'set', cds, detail: `DS [${ds.join(', ')}] -> [${want.join(', ')}]` });
}
