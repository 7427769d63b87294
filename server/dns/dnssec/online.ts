/**
 * Online signing of one answer (RFC 4035 §3.1), between the resolver and the encoder, for
 * queries with the DO bit to a signed zone:
 * - every RRset of the answer section gets its RRSIG (§3.1.1);
 * - a negative answer gets the SOA's RRSIG and one compact-denial NSEC with its RRSIG
 *   (RFC 9824), and NXDOMAIN becomes NOERROR, as §3.2 of that RFC says;
 * - a referral gets the cut's signed DS RRset, or else the NSEC proving it has none (§3.1.4),
 *   unsigned NS and glue.
 * Wildcard answers are signed under the asked name, as if the name existed (what the online
 * signers of Cloudflare and Route 53 do): the RRSIG's Labels field equals the owner's, so a
 * validator needs no proof that no closer name exists (RFC 4035 §5.3.4 applies only when
 * Labels is smaller), and NODATA at such a name is the same compact NSEC as anywhere else.
 * A zone in nsec3 mode proves its negative answers with NSEC3 white lies instead (online-nsec3.ts),
 * and keeps the NXDOMAIN rcode.
 * Additional-section RRsets the zone is authoritative for carry their RRSIGs (§3.1.1: MUST when
 * space permits); the encoder drops an RRset with its signature when the pair does not fit,
 * never setting TC for it. Glue below a cut stays unsigned (§2.2).
 * A query for type RRSIG at a name that exists answers every signature there, as BIND does:
 * a NODATA whose NSEC lists RRSIG would contradict itself.
 */
import type { Resolution } from '../index/resolve';
import { RCODE, T, withOwner, type RRset } from '../index/rrset';
import { compactNsec } from './denial';
import { nsec3AtCut, nsec3Denial } from './online-nsec3';
import type { ZoneSigner } from './sign';

export function signResolution(res: Resolution, qtype: number, signer: ZoneSigner): Resolution {
  const zone = res.zone!;
  const answer: RRset[] = [];
  for (const set of res.answer) answer.push(set, signer.sign(set));
  const authority: RRset[] = [];
  let rcode = res.rcode;
  const nsecTtl = zone.soa.ttl;
  const hashed = zone.denial === 'nsec3';

  for (const set of res.authority) {
    if (set.type === T.SOA) authority.push(set, signer.sign(set));
    else if (set.type === T.NS) {
      const ds = zone.nodes.get(set.name)?.get(T.DS);
      if (ds) {
        // RFC 4035 §3.1.4: a referral to a signed child carries its DS RRset, signed.
        authority.push(set, ds, signer.sign(ds));
      } else {
        // A referral: the cut has no DS, so the child is unsigned as far as we know.
        const nsec = hashed ? nsec3AtCut(zone, set.name) : compactNsec(set.name, [T.NS], nsecTtl);
        authority.push(set, nsec, signer.signByContent(nsec));
      }
    } else authority.push(set);
  }

  const additional: RRset[] = [];
  for (const set of res.additional) {
    if (zone.cutAbove(set.name) === undefined) additional.push(set, signer.sign(set));
    else additional.push(set);
  }

  if (res.denial) {
    const { name, types } = res.denial;
    if (qtype === T.RRSIG && types !== null && types.length > 0 && res.answer.length === 0) {
      // The asked node, or the wildcard that stands for it (RFC 4592 §3.3.1).
      const node = zone.nodes.get(name) ?? zone.nodes.get(`*.${zone.closestEncloser(name)}`);
      if (node && node.size > 0) {
        const sigs = [...node.values()].sort((a, b) => a.type - b.type).map((set) => signer.sign(withOwner(set, name)));
        return { ...res, rcode: RCODE.NOERROR, answer: sigs, authority: [], additional: [] };
      }
    }
    if (hashed) {
      for (const proof of nsec3Denial(zone, name, types)) authority.push(proof, signer.signByContent(proof));
      return { ...res, answer, authority, additional };
    }
    const nsec = compactNsec(name, types, nsecTtl);
    const sig = signer.signByContent(nsec);
    if (rcode === RCODE.NXDOMAIN) rcode = RCODE.NOERROR;
    if (qtype === T.NSEC && types !== null && res.answer.length === 0) {
      // Asked for the NSEC itself: it is the answer, not a proof (a NODATA listing NSEC would contradict it).
      return { ...res, rcode, answer: [nsec, sig], authority: [], additional };
    }
    authority.push(nsec, sig);
  }
  return { ...res, rcode, answer, authority, additional };
}
