/** Each "before real use" item in words: what it is, and what to do while it is not set (docs/operations.md says the same). */
import type { ReadinessItem } from '../../lib/api-types';

export const READINESS_WORDS: Record<ReadinessItem['key'], { title: string; todo: string }> = {
  nameservers: {
    title: 'NAMESERVERS',
    todo: 'The name servers every new zone names at its apex, and every SOA names first. Set it to the host names of the servers that answer for your zones before the first real zone: the default .test names can never be delegated to.',
  },
  hostmaster: {
    title: 'HOSTMASTER',
    todo: "The SOA's contact mailbox, written as a name: hostmaster.example.net for hostmaster@example.net.",
  },
  zones_nameservers: {
    title: 'Zones on other name servers',
    todo: 'Zones keep the apex NS set they were made with. A restart with a new NAMESERVERS moves the zones that had the previous one; move the others below, one set at a time (a set you made by hand stays unless you move it).',
  },
  admin_password: {
    title: 'The admin password',
    todo: 'admin still has the password the first start printed (kept in DATA_DIR/admin-password until it changes). Change it on the Account page.',
  },
  resolver: {
    title: 'RESOLVER',
    todo: "A recursive resolver (host:port) that delegation checks ask. Without it no zone's delegation is checked, and zones say so.",
  },
  dns_port: {
    title: 'DNS on port 53',
    todo: 'Parents and resolvers ask on port 53 alone: set DNS_PORT=53 and DNS_HOST to the public address (or keep this server hidden behind secondaries that answer on 53).',
  },
  public_url: {
    title: 'PUBLIC_URL',
    todo: 'The https:// address people open the dashboard at. Passkeys need a name, not an IP address, and behind a TLS proxy cookies are marked Secure by it.',
  },
};
