import { describe, expect, it } from 'vitest';
import { changesNothing, importSummary, lineErrors } from './import-outcome';

describe('lineErrors', () => {
  it('orders the messages by line number and keeps other fields apart', () => {
    const fields = { 'line 12': 'record type BOGUS is not supported', 'line 2': 'A: must be an IPv4 address', 'If-Match': 'the zone is at serial 9' };
    expect(lineErrors(fields)).toEqual({
      lines: [
        { line: 2, message: 'A: must be an IPv4 address' },
        { line: 12, message: 'record type BOGUS is not supported' },
      ],
      other: [['If-Match', 'the zone is at serial 9']],
    });
  });
});

describe('importSummary', () => {
  const cs = { added_count: 0, removed_count: 0, settings: {} };
  it('says what applying the preview would do, in counts', () => {
    expect(importSummary({ ...cs, added_count: 3, removed_count: 1, settings: { minimum_ttl: [3600, 300], retry_interval: [3600, 900] } })).toBe(
      'adds 3 records, removes 1 record and changes 2 settings',
    );
    expect(importSummary({ ...cs, added_count: 1500 })).toBe('adds 1,500 records');
    expect(importSummary({ ...cs, removed_count: 2, settings: { minimum_ttl: [3600, 300] } })).toBe('removes 2 records and changes 1 setting');
  });

  it('says when the file matches the zone already', () => {
    expect(changesNothing(cs)).toBe(true);
    expect(changesNothing({ ...cs, settings: { minimum_ttl: [3600, 300] } })).toBe(false);
    expect(importSummary(cs)).toMatch(/^changes nothing/);
  });
});
