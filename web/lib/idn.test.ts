import { describe, expect, it } from 'vitest';
import { unicodeName } from './idn';

describe('unicodeName', () => {
  it('decodes A-labels and leaves ASCII names alone', () => {
    expect(unicodeName('xn--bcher-kva.example')).toBe('bücher.example');
    expect(unicodeName('www.xn--mnchen-3ya.de')).toBe('www.münchen.de');
    expect(unicodeName('example.com')).toBeNull();
    // Not valid Punycode: shown as it is.
    expect(unicodeName('xn--.example')).toBeNull();
  });
});
