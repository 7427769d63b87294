import { describe, expect, it } from 'vitest';
import { plural, transitionText, upCount } from './pool-words';

describe('pool words', () => {
  it('counts the members that are up', () => {
    expect(upCount([{ state: 'up' }, { state: 'down' }, { state: 'unknown' }])).toBe('1 of 3 up');
    expect(upCount([])).toBe('0 of 0 up');
  });

  it('tells a member going down from one coming back and one checked for the first time', () => {
    expect(transitionText({ address: '192.0.2.1', from: 'up', to: 'down' })).toBe('192.0.2.1 went down');
    expect(transitionText({ address: '192.0.2.1', from: 'down', to: 'up' })).toBe('192.0.2.1 came back up');
    expect(transitionText({ address: '2001:db8::1', from: 'unknown', to: 'up' })).toBe('2001:db8::1 is up (first checks)');
  });
});

describe('plural', () => {
  it('counts in words that agree with the number', () => {
    expect(plural(1, 'failure')).toBe('1 failure');
    expect(plural('3', 'failed check')).toBe('3 failed checks');
    expect(plural(' ', 'failure')).toBe('…');
  });
});
