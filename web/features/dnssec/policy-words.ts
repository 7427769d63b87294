/** The policy's choices in plain words: what each one is, and what it means for the zone. */
import type { DnssecKey, DnssecPolicy } from '../../lib/api-types';

export const ALGORITHMS: { value: DnssecPolicy['algorithm']; label: string; help: string }[] = [
  { value: 'ecdsap256sha256', label: 'ECDSA P-256 (algorithm 13)', help: 'Small signatures that every validating resolver understands. The safe default.' },
  { value: 'ecdsap384sha384', label: 'ECDSA P-384 (algorithm 14)', help: 'A larger curve, for policies that ask for it; slightly larger answers.' },
  { value: 'ed25519', label: 'Ed25519 (algorithm 15)', help: 'Fast and compact (RFC 8080); a few old resolvers treat such zones as unsigned.' },
];

export const KEY_SETUPS: { value: DnssecPolicy['keys']; label: string; help: string }[] = [
  { value: 'csk', label: 'One combined key (CSK)', help: 'One key signs everything; each rollover involves the parent’s DS.' },
  {
    value: 'ksk-zsk',
    label: 'Key-signing key + zone-signing key (KSK + ZSK)',
    help: 'The ZSK signs the records and rolls often without the parent; the KSK, which the DS points at, rolls rarely.',
  },
];

export const DENIALS: { value: DnssecPolicy['denial']; label: string; help: string }[] = [
  { value: 'compact', label: 'Compact answers', help: 'A name that does not exist is answered with one small signed record (RFC 9824); nothing to walk.' },
  { value: 'nsec3', label: 'NSEC3', help: 'Hashed denial (RFC 5155) with no extra iterations and no salt, as RFC 9276 advises; for tools that expect it.' },
];

export const ROLE_WORDS: Record<DnssecKey['role'], string> = { csk: 'CSK', ksk: 'KSK', zsk: 'ZSK' };

/** What each RFC 7583 state means for the key, for the badge's tooltip and tone. */
export const STATE_WORDS: Record<DnssecKey['state'], { help: string; tone: 'neutral' | 'success' | 'warning' | 'info' }> = {
  generated: { help: 'Made, not yet published', tone: 'neutral' },
  published: { help: 'In the DNSKEY set; resolvers are picking it up', tone: 'info' },
  ready: { help: 'Known to every resolver; waiting for the parent’s DS', tone: 'info' },
  active: { help: 'Signs the zone', tone: 'success' },
  retired: { help: 'No longer in use; kept until caches have forgotten it', tone: 'warning' },
  removed: { help: 'Gone from the zone', tone: 'neutral' },
};
