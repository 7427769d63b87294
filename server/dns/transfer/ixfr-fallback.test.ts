/**
 * IXFR falls back to the whole zone where the history does not describe what secondaries hold:
 * across DNSSEC turned off (the DNSKEY, RRSIGs and NSECs must go), while the CDS/CDNSKEY delete
 * form is published, and for a zone with an apex ALIAS (its addresses are resolved, not stored).
 */
import packet from 'dns-packet';
import { describe, expect, it } from 'vitest';
import type { ChangeEntryRow, ChangeSetRow } from '../../store/types';
import { ixfrMessages, type HistoryReader } from './ixfr';
import { parseQuery } from '../wire/query';
import { Zone } from '../index/zone';
import { domainRow, IDENTITY, row } from '../../testing/zone-fixture';

const S0 = 2024010100;
const S1 = 2024010101;

function step(settings: Record<string, unknown>, entries: ChangeEntryRow[], source = 'api'): { history: HistoryReader } {
  const cs: ChangeSetRow = {
    id: 1,
    domain_id: 1,
    serial_before: S0,
    serial_after: S1,
    created_at: '',
    source,
    actor_username: 'a',
    actor_credential: 'cli',
    comment: '',
    settings: JSON.stringify(settings),
    added_count: entries.filter((e) => e.op === 1).length,
    removed_count: entries.filter((e) => e.op === 0).length,
  };
  return { history: { since: async () => [cs], entries: async () => entries } };
}

async function mode(zone: Zone, history: HistoryReader) {
  const raw = packet.encode({
    id: 1,
    type: 'query',
    questions: [{ name: zone.name, type: 'IXFR' }],
    authorities: [{ name: zone.name, type: 'SOA', ttl: 0, data: { mname: 'a', rname: 'b', serial: S0, refresh: 1, retry: 1, expire: 1, minimum: 1 } }],
  });
  const parsed = parseQuery(raw);
  if (parsed.kind !== 'query') throw new Error('bad query');
  return (await ixfrMessages(raw, parsed.query, zone, history)).mode;
}

const records = (extra: ReturnType<typeof row>[] = []) => [
  row(1, '@', 'NS', 'ns1.zonedeck.test', 3600),
  row(1, 'www', 'A', '192.0.2.1'),
  row(1, 'a', 'A', '192.0.2.2'),
  row(1, 'b', 'A', '192.0.2.3'),
  ...extra,
];
const www: ChangeEntryRow = { op: 1, name: 'www', record_type: 'A', ttl: 300, content: '192.0.2.1', disabled: 0 };

describe('IXFR falls back to AXFR', () => {
  it('not for an ordinary change', async () => {
    expect(await mode(new Zone(domainRow('example.com', 1, S1), records(), IDENTITY), step({}, [www]).history)).toBe('incremental');
  });

  it('across DNSSEC turned off, and while the delete form is published', async () => {
    const off = new Zone(domainRow('example.com', 1, S1), records(), IDENTITY);
    expect(await mode(off, step({ dnssec_enabled: [true, false] }, []).history)).toBe('full');
    const deleting = new Zone({ ...domainRow('example.com', 1, S1), dnssec_disabled_at: new Date().toISOString() }, records(), IDENTITY);
    expect(await mode(deleting, step({}, [www]).history)).toBe('full');
    // The change set that withdraws the delete form changes no record, but the zone all the same.
    expect(await mode(new Zone(domainRow('example.com', 1, S1), records(), IDENTITY), step({}, [], 'dnssec').history)).toBe('full');
  });

  it('for a zone with an ALIAS, and across one added or removed', async () => {
    const alias = new Zone(domainRow('example.com', 1, S1), records([row(1, '@', 'ALIAS', 'lb.example.net')]), IDENTITY);
    expect(await mode(alias, step({}, [www]).history)).toBe('full');
    const removed: ChangeEntryRow = { op: 0, name: '', record_type: 'ALIAS', ttl: 300, content: 'lb.example.net', disabled: 0 };
    expect(await mode(new Zone(domainRow('example.com', 1, S1), records(), IDENTITY), step({}, [removed]).history)).toBe('full');
  });
});
