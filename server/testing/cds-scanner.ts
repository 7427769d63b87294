/**
 * What a registrar's scanner does for a child zone (RFC 7344 §4, RFC 8078): every second it asks
 * the resolver for the child's CDS, and when a CDS that validates differs from the DS set the
 * parent serves, it makes the parent's DS set the CDS set; the delete form (`0 0 0 00`) removes the
 * DS. A CDS that does not validate changes nothing (fail closed), so a broken chain stays broken
 * rather than being "repaired" from an answer anyone could have forged.
 *
 * An insecure child (no DS yet) cannot validate against the root: then the scanner accepts the CDS
 * only if it validates with itself as the child's trust anchor (its key signs the DNSKEY set that
 * signs the CDS), the self-consistency check of RFC 8078 §3 with no waiting period.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BindChain } from './bind-chain';
import { delv, dsRecordsIn, isDeleteCds, sameDsSet } from './delv';
import { repeatEvery } from './repeat-every';

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
  let anchor = chain.trustAnchorFile;
  let root = '.';
  if (ds.length === 0) {
    const seen = await delv(chain.trustAnchorFile, chain.resolver, chain.child, 'CDS');
    const cds = dsRecordsIn(seen.output, 'CDS');
    if (cds.length === 0 || isDeleteCds(cds)) return;
    anchor = path.join(path.dirname(chain.trustAnchorFile), 'child-bootstrap-anchor.conf');
    const anchors = cds.map((r) => {
      const [tag, algorithm, digestType, digest] = r.split(' ');
      return `  ${chain.child}. static-ds ${tag} ${algorithm} ${digestType} "${digest}";`;
    });
    fs.writeFileSync(anchor, `trust-anchors {\n${anchors.join('\n')}\n};\n`);
    root = chain.child;
  }
  const answer = await delv(anchor, chain.resolver, chain.child, 'CDS', root);
  const cds = dsRecordsIn(answer.output, 'CDS');
  if (!answer.validated) {
    // Once per spell of refusals: the scanner keeps refusing every second.
    if (events.at(-1)?.action !== 'refused') events.push({ at: new Date(), action: 'refused', cds, detail: answer.output });
    return;
  }
  if (cds.length === 0) return;
  const want = isDeleteCds(cds) ? [] : cds;
  if (sameDsSet(want, ds)) return;
  await chain.setDs(want);
  events.push({ at: new Date(), action: 'set', cds, detail: `DS [${ds.join(', ')}] -> [${want.join(', ')}]` });
}
