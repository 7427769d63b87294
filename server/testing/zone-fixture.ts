/** A test zone built straight from rows, for the resolver and handler tests (no store, no sockets). */
import type { DomainRow, RecordRow } from '../store/types';
import { Zone } from '../dns/index/zone';
import { ZoneIndex } from '../dns/index/zone-index';

export const IDENTITY = { primary: 'ns1.zonedeck.test', hostmaster: 'hostmaster.zonedeck.test' };

export function domainRow(name: string, id = 1, serial = 2024010100): DomainRow {
  return {
    id,
    user_id: 1,
    name,
    serial_number: serial,
    refresh_interval: 10800,
    retry_interval: 3600,
    expire_interval: 1209600,
    minimum_ttl: 3600,
    dnssec_enabled: false,
    delegated: false,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
  };
}

let nextId = 1;
export function row(domainId: number, name: string, record_type: string, content: string, ttl = 300): RecordRow {
  return { id: nextId++, domain_id: domainId, name, record_type, content, ttl, created_at: '', updated_at: '', disabled: 0 };
}

/** example.com with every shape the resolver distinguishes, and a hosted child zone. */
export function exampleIndex(): ZoneIndex {
  const r = (name: string, type: string, content: string, ttl?: number) => row(1, name, type, content, ttl);
  const zone = new Zone(
    domainRow('example.com'),
    [
      r('@', 'NS', 'ns1.zonedeck.test', 3600),
      r('@', 'NS', 'ns2.zonedeck.test', 3600),
      r('@', 'MX', '10 mail.example.com'),
      r('@', 'A', '192.0.2.10'),
      r('www', 'A', '192.0.2.1'),
      r('www', 'A', '192.0.2.2'),
      r('www', 'AAAA', '2001:db8::1'),
      r('mail', 'A', '192.0.2.25'),
      r('alias', 'CNAME', 'www.example.com'),
      r('chain', 'CNAME', 'alias.example.com'),
      r('dangling', 'CNAME', 'missing.example.com'),
      r('outside', 'CNAME', 'www.example.net'),
      r('loop1', 'CNAME', 'loop2.example.com'),
      r('loop2', 'CNAME', 'loop1.example.com'),
      r('*.wild', 'TXT', 'wildcard text'),
      r('*.wild', 'A', '192.0.2.99'),
      r('exists.wild', 'A', '192.0.2.100'),
      r('*.cn', 'CNAME', 'www.example.com'),
      r('a.b.c', 'TXT', 'deep'),
      r('sub', 'NS', 'ns1.sub.example.com'),
      r('sub', 'NS', 'ns.example.net'),
      r('ns1.sub', 'A', '192.0.2.53'),
      r('_sip._tcp', 'SRV', '10 5 5060 mail.example.com'),
      r('big', 'TXT', 'x'.repeat(1000)),
      r('big', 'TXT', 'y'.repeat(1000)),
      r('caa', 'CAA', '0 issue "letsencrypt.org"'),
      r('child', 'NS', 'ns1.zonedeck.test'),
    ],
    IDENTITY,
  );
  const child = new Zone(domainRow('child.example.com', 2), [row(2, '@', 'NS', 'ns1.zonedeck.test', 3600), row(2, 'host', 'A', '198.51.100.1')], IDENTITY);
  const index = new ZoneIndex();
  index.put(zone);
  index.put(child);
  return index;
}
