import { describe, expect, it } from 'vitest';
import type { DnsRecord, Domain } from '../../lib/api-types';
import { checkDraft, draftOf, emptyDraft, optimisticRecord, withType } from './record-draft';

const domain = { name: 'example.com', minimum_ttl: 3600 } as Domain;
const rec = (r: Partial<DnsRecord>): DnsRecord => ({ id: 1, name: 'www', record_type: 'A', content: '192.0.2.1', ttl: '3600', fqdn: 'www.example.com', ...r });

describe('checkDraft', () => {
  it('joins the registry fields into canonical content, as the server will store it', () => {
    const d = { ...emptyDraft('MX'), name: '@', values: ['10', 'Mail.Example.NET.'] };
    expect(checkDraft(d, domain)).toEqual({ errors: {}, record: { name: '@', record_type: 'MX', content: '10 mail.example.net' } });
    const srv = { ...emptyDraft('SRV'), name: '_sip._tcp', values: ['10', '5', '5060', 'sip.example.com'], ttl: '300' };
    expect(checkDraft(srv, domain).record).toEqual({ name: '_sip._tcp', record_type: 'SRV', content: '10 5 5060 sip.example.com', ttl: '300' });
  });

  it('names each bad field with the same message the server would give', () => {
    const d = { name: 'bad name', type: 'AAAA', values: ['2001:db8::zz'], ttl: '-1' };
    const { errors, record } = checkDraft(d, domain);
    expect(record).toBeUndefined();
    expect(Object.keys(errors).sort()).toEqual(['content', 'name', 'ttl']);
    expect(errors.content).toBe('AAAA: must be an IPv6 address such as 2001:db8::1');
    expect(errors.ttl).toMatch(/whole number of seconds/);
  });

  it('refuses a CNAME at the apex and requires content', () => {
    expect(checkDraft({ ...emptyDraft('CNAME'), name: '@', values: ['x.example.net'] }, domain).errors.record_type).toMatch(/cannot stand at the zone apex/);
    expect(checkDraft(emptyDraft('A'), domain).errors.content).toBe('is required');
  });
});

describe('drafts of existing records', () => {
  it('splits content into the type’s fields and keeps a one-field value across a type change', () => {
    expect(draftOf(rec({ record_type: 'CAA', content: '0 issue "letsencrypt.org"' })).values).toEqual(['0', 'issue', 'letsencrypt.org']);
    expect(withType({ ...emptyDraft('A'), values: ['192.0.2.1'] }, 'AAAA').values).toEqual(['192.0.2.1']);
    expect(withType({ ...emptyDraft('A'), values: ['192.0.2.1'] }, 'MX').values).toEqual(['', '']);
  });

  it('gives an optimistic record the TTL the server will give it: its RRset’s, else the zone minimum', () => {
    const list = [rec({ id: 7, ttl: '600' })];
    expect(optimisticRecord(-1, { name: 'www', record_type: 'A', content: '192.0.2.9' }, domain, list).ttl).toBe('600');
    expect(optimisticRecord(-1, { name: 'new', record_type: 'A', content: '192.0.2.9' }, domain, list)).toEqual({ id: -1, name: 'new', record_type: 'A', content: '192.0.2.9', ttl: '3600', fqdn: 'new.example.com' });
  });
});
