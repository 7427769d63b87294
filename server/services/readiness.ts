/**
 * "Before real use": what an operator sets before a server answers for real zones, each with its
 * state on this server. The dashboard's page and docs/operations.md list the same items; the
 * dashboard explains each (`key`), the server says what holds.
 */
import type { ReadStore } from '../store/types';
import type { FirstPassword } from './identity/first-password';
import { DEFAULT_NAMESERVERS, sameSet, type NameserverMoves } from './zones/nameservers-move';

/** HOSTMASTER when it is not set (config.ts). */
const DEFAULT_HOSTMASTER = 'hostmaster.zonedeck.test';

export interface ReadinessSettings {
  nameservers: readonly string[];
  hostmaster: string;
  resolver?: string;
  /** The port DNS answers on (DNS_PORT, or the one picked for 0); null: DNS_PORT=off. */
  dnsPort: () => number | null;
  publicOrigin?: string;
}

export interface ReadinessItem {
  key: 'nameservers' | 'hostmaster' | 'zones_nameservers' | 'admin_password' | 'resolver' | 'dns_port' | 'public_url';
  /** Set as it should be for real use. */
  ok: boolean;
  /** Wrong answers for real zones until it is set (the rest limits what works, or how safely). */
  critical: boolean;
  /** What is in effect, in a few words. */
  value: string;
}

export interface Readiness {
  items: ReadinessItem[];
  /** Zones on an apex NS set other than NAMESERVERS, by set: what the move action offers. */
  other_nameservers: { nameservers: string[]; zones: number }[];
}

export function createReadiness(reads: ReadStore, moves: NameserverMoves, firstPassword: FirstPassword, settings: ReadinessSettings) {
  /** Whether `admin` still has a password someone else chose: the first start's, kept in its file, or one not changed since. */
  async function adminPasswordGenerated(): Promise<boolean> {
    if (firstPassword.exists()) return true;
    const admin = await reads.users.byUsername('admin');
    return admin ? reads.users.mustChangePassword(admin.id) : false;
  }

  return async function readiness(): Promise<Readiness> {
    const { nameservers, hostmaster, resolver, publicOrigin } = settings;
    const dnsPort = settings.dnsPort();
    const others = await moves.others();
    const generated = await adminPasswordGenerated();
    const items: ReadinessItem[] = [
      { key: 'nameservers', ok: !sameSet(nameservers, DEFAULT_NAMESERVERS) && !nameservers.some((n) => n.endsWith('.test')), critical: true, value: nameservers.join(', ') },
      { key: 'hostmaster', ok: hostmaster !== DEFAULT_HOSTMASTER, critical: true, value: hostmaster },
      { key: 'zones_nameservers', ok: others.zones === 0, critical: true, value: `${others.zones} zone${others.zones === 1 ? '' : 's'} on another set` },
      { key: 'admin_password', ok: !generated, critical: true, value: generated ? 'the generated one' : 'changed' },
      { key: 'resolver', ok: resolver !== undefined, critical: false, value: resolver ?? 'unset: delegation checks are off' },
      { key: 'dns_port', ok: dnsPort === 53, critical: false, value: dnsPort === null ? 'off' : String(dnsPort) },
      { key: 'public_url', ok: publicOrigin !== undefined, critical: false, value: publicOrigin ?? 'unset' },
    ];
    return { items, other_nameservers: others.sets };
  };
}
