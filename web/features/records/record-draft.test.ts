import { describe, expect, it } from 'vitest';
import type { DnsRecord, Domain } from '../../lib/api-types';
import { changesOf, checkDraft, draftOf, emptyDraft, optimisticRecord, txtQuoteWarning, withType, type Draft } from './record-draft';

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
    const d = { name: 'bad name', type: 'AAAA', values: ['2001:db8::zz'], ttl: '-1', comment: '' };
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

describe('the new record types in the form', () => {
  it('joins TLSA, HTTPS and NAPTR fields into canonical content, and names what is wrong', () => {
    const tlsa = { ...emptyDraft('TLSA'), name: '_443._tcp.www', values: ['3', '1', '1', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'] };
    expect(checkDraft(tlsa, domain).record?.content).toBe('3 1 1 E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(checkDraft({ ...tlsa, values: ['3', '1', '1', 'xyz'] }, domain).errors.content).toBe('TLSA: certificate association data must be hex');
    const https = { ...emptyDraft('HTTPS'), name: '@', values: ['1', '.', 'port=443 alpn=h2,h3'] };
    expect(checkDraft(https, domain).record?.content).toBe('1 . alpn="h2,h3" port=443');
    const naptr = { ...emptyDraft('NAPTR'), name: 'sip', values: ['100', '10', 'u', 'E2U+sip', '!^.*$!sip:info@example.com!', '.'] };
    expect(checkDraft(naptr, domain).record?.content).toBe('100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .');
    expect(draftOf(rec({ record_type: 'NAPTR', content: '100 10 "u" "E2U+sip" "!^.*$!sip:info@example.com!" .' })).values).toEqual(naptr.values);
  });

  it('refuses a DS at the apex: it belongs in the parent zone', () => {
    expect(checkDraft({ ...emptyDraft('DS'), name: '@', values: ['1', '13', '2', 'AB'.repeat(32)] }, domain).errors.record_type).toBe(
      'a DS record belongs in the parent zone, at the delegation (RFC 4035 §2.4)',
    );
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
    expect(optimisticRecord(-1, { name: 'new', record_type: 'A', content: '192.0.2.9' }, domain, list)).toEqual({
      id: -1,
      name: 'new',
      record_type: 'A',
      content: '192.0.2.9',
      ttl: '3600',
      fqdn: 'new.example.com',
    });
  });
});

describe('txtQuoteWarning', () => {
  it('warns when a TXT value is typed with the quotes of a zone file, which would be published', () => {
    expect(txtQuoteWarning('TXT', '"v=DMARC1; p=reject"')).toMatch(/quotes would be published/);
    expect(txtQuoteWarning('TXT', ' "v=spf1 -all" ')).toMatch(/quotes/);
  });
  it('stays quiet for plain text, a quote inside the text, and other types', () => {
    expect(txtQuoteWarning('TXT', 'v=spf1 -all')).toBeUndefined();
    expect(txtQuoteWarning('TXT', 'say "hi"')).toBeUndefined();
    expect(txtQuoteWarning('TXT', '"')).toBeUndefined();
    expect(txtQuoteWarning('CNAME', '"x"')).toBeUndefined();
  });
});

describe('changesOf', () => {
  const before = rec({ id: 5, name: 'www', content: '192.0.2.1', ttl: '3600' });
  const edited = (d: Partial<Draft>) => {
    const draft = { ...draftOf(before), ...d };
    return changesOf(before, checkDraft(draft, domain).record!, draft);
  };

  it('sends nothing for an edit that changes nothing, even a TTL typed as it was', () => {
    expect(edited({})).toEqual({});
    expect(edited({ ttl: '3600' })).toEqual({});
  });

  it('sends only what changed: the new content, or the name as the user typed it', () => {
    expect(edited({ values: ['192.0.2.2'] })).toEqual({ content: '192.0.2.2' });
    expect(edited({ name: ' Mail ', ttl: '300' })).toEqual({ name: 'Mail', ttl: '300' });
    expect(edited({ name: '' })).toEqual({ name: '@' });
  });

  it("sends the RRset's comment only when it changed: set, changed, or cleared with null", () => {
    expect(edited({ comment: ' web front ' })).toEqual({ comment: 'web front' });
    const noted = rec({ id: 5, name: 'www', content: '192.0.2.1', ttl: '3600', comment: 'web front' });
    const draft = draftOf(noted);
    expect(draft.comment).toBe('web front');
    expect(changesOf(noted, checkDraft(draft, domain).record!, draft)).toEqual({});
    const cleared = { ...draft, comment: '  ' };
    expect(changesOf(noted, checkDraft(cleared, domain).record!, cleared)).toEqual({ comment: null });
  });

  it('refuses a comment the server would refuse, naming the field', () => {
    expect(checkDraft({ ...draftOf(before), comment: 'x'.repeat(513) }, domain).errors).toEqual({ comment: 'must be at most 512 characters' });
    expect(checkDraft({ ...draftOf(before), comment: 'a\tb' }, domain).errors).toEqual({ comment: 'must not contain control characters' });
  });
});
