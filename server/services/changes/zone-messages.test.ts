import { describe, expect, it } from 'vitest';
import type { DomainRow } from '../../store/types';
import type { ZoneChange } from './events';
import { decodeZoneMessage, encodeZoneMessage, MAX_MESSAGE_BYTES } from './zone-messages';

const at = '2026-01-01T00:00:00.000Z';
const domainRow = (name: string, id = 1): DomainRow => ({
  id,
  user_id: 1,
  name,
  serial_number: 2026010100,
  refresh_interval: 10800,
  retry_interval: 3600,
  expire_interval: 1209600,
  minimum_ttl: 3600,
  dnssec_enabled: false,
  delegated: false,
  created_at: at,
  updated_at: at,
});

describe('zone messages between nodes', () => {
  it('carry a change and the process that made it', () => {
    const change: ZoneChange = { kind: 'zone-changed', domain: domainRow('example.com', 7), names: ['www', '@'], keys: false };
    expect(decodeZoneMessage(encodeZoneMessage('node-a', change))).toEqual({ origin: 'node-a', change });
    const deleted: ZoneChange = { kind: 'zone-deleted', domain: domainRow('example.com', 7) };
    expect(decodeZoneMessage(encodeZoneMessage('node-b', deleted))).toEqual({ origin: 'node-b', change: deleted });
  });

  it('fit in a NOTIFY payload: a change to more names than fit says "reload the zone" instead', () => {
    const names = Array.from({ length: 2000 }, (_, i) => `host-${i}.sub`);
    const payload = encodeZoneMessage('node-a', { kind: 'zone-changed', domain: domainRow('example.com', 7), names, keys: true });
    expect(Buffer.byteLength(payload)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    expect(decodeZoneMessage(payload)?.change).toMatchObject({ kind: 'zone-changed', names: [], reload: true, keys: true, domain: { id: 7 } });
    // Names with multi-byte characters count in bytes, as PostgreSQL does.
    const wide = Array.from({ length: 600 }, (_, i) => `é${i}`);
    expect(Buffer.byteLength(encodeZoneMessage('n', { kind: 'zone-changed', domain: domainRow('example.com'), names: wide, keys: false }))).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
  });

  it('are ignored when they are not ones this version reads', () => {
    for (const payload of [
      '',
      'null',
      '{}',
      '[1]',
      '{"v":2,"origin":"x","change":{"kind":"zone-deleted","domain":{"id":1,"name":"a.b"}}}',
      '{"v":1,"origin":"x","change":{"kind":"zone-changed","domain":{"id":1,"name":"a.b"}}}',
      '{"v":1,"origin":"x","change":{"kind":"other","domain":{"id":1,"name":"a.b"}}}',
    ]) {
      expect(decodeZoneMessage(payload)).toBeNull();
    }
  });
});
