import { describe, expect, it } from 'vitest';
import type { ChangeSet } from './api-types';
import { diffLines, missingLines, settingLines, shortLine, zoneFileLine } from './change-lines';

const rec = (name: string, record_type: string, content: string, ttl = '300') => ({ name, record_type, content, ttl });

describe('diffLines', () => {
  it('writes each record as a zone-file line, removed before added', () => {
    const lines = diffLines({ removed: [rec('www', 'A', '192.0.2.1')], added: [rec('www', 'CNAME', 'cdn.example.net')] });
    expect(lines.map(zoneFileLine)).toEqual(['- www 300 IN A 192.0.2.1', '+ www 300 IN CNAME cdn.example.net.']);
    expect(lines.map(shortLine)).toEqual(['- www A 192.0.2.1', '+ www CNAME cdn.example.net.']);
  });

  it('prints TXT as a zone file and dig do: quoted strings, so literal quotes in the text show as such', () => {
    const lines = diffLines({
      removed: [rec('_dmarc', 'TXT', 'v=DMARC1; p=none')],
      // What a client that sent the quotes inside the text publishes: a broken DMARC record.
      added: [rec('_dmarc', 'TXT', '\\"v=DMARC1; p=reject\\"'), rec('txt', 'TXT', '"v=spf1 include:_spf.example.net" " -all"')],
    });
    expect(lines.map(zoneFileLine)).toEqual(['- _dmarc 300 IN TXT "v=DMARC1; p=none"', '+ _dmarc 300 IN TXT "\\"v=DMARC1; p=reject\\""', '+ txt 300 IN TXT "v=spf1 include:_spf.example.net" " -all"']);
  });

  it('groups lines by RRset, the apex first, keeping the server’s order inside one', () => {
    const cs = {
      added: [rec('www', 'A', '192.0.2.9', '600'), rec('@', 'MX', '10 mail.example.net'), rec('mail', 'A', '192.0.2.3'), rec('www', 'A', '192.0.2.2', '600')],
      removed: [rec('www', 'A', '192.0.2.2')],
    };
    expect(diffLines(cs).map(zoneFileLine)).toEqual([
      '+ @ 300 IN MX 10 mail.example.net.',
      '+ mail 300 IN A 192.0.2.3',
      // A TTL change: the old record goes, the same content comes back with the new TTL.
      '- www 300 IN A 192.0.2.2',
      '+ www 600 IN A 192.0.2.9',
      '+ www 600 IN A 192.0.2.2',
    ]);
  });

  it('counts the records a list left out', () => {
    const cs = { added: [rec('a', 'A', '192.0.2.1')], removed: [], added_count: 1500, removed_count: 0 };
    expect(missingLines(cs)).toBe(1499);
    expect(missingLines({ ...cs, added_count: 1 })).toBe(0);
  });
});

describe('settingLines', () => {
  it('names SOA fields as the form does and DNSSEC as on/off', () => {
    const settings: ChangeSet['settings'] = { minimum_ttl: [3600, 300], retry_interval: [3600, 1800], dnssec_enabled: [false, true] };
    expect(settingLines(settings)).toEqual(['Minimum TTL 3600 → 300', 'Retry 3600 → 1800', 'DNSSEC off → on']);
  });

  it("shows a zone's own transfers as lists", () => {
    expect(settingLines({ also_notify: [[], ['192.0.2.1:53', '[2001:db8::1]:53']], transfer_tsig_key: ['xfr', null] })).toEqual([
      'Also notify (none) → 192.0.2.1:53, [2001:db8::1]:53',
      'Transfer key xfr → (none)',
    ]);
  });

  it('shows settings it does not know by their field name', () => {
    expect(settingLines({ dnssec_keys: ['31589', 'rollover started'], future_field: [null, 'x'] })).toEqual(['DNSSEC keys 31589 → rollover started', 'future_field (none) → x']);
  });
});
