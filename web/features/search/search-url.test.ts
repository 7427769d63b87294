import { describe, expect, it } from 'vitest';
import { searchUrl } from './search-url';

describe('the search box', () => {
  it('searches contents for an address or a network, names for anything else', () => {
    expect(searchUrl(' 192.0.2.10 ')).toBe('/search?content=192.0.2.10');
    expect(searchUrl('2001:db8::/32')).toBe('/search?content=2001%3Adb8%3A%3A%2F32');
    expect(searchUrl('mail.example.com')).toBe('/search?name=mail.example.com');
    expect(searchUrl('cafe')).toBe('/search?name=cafe');
  });
});
