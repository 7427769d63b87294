import { describe, expect, it } from 'vitest';
import { asAbsolute, zoneId, zoneNameOfId } from './names';

describe('zone ids (pdns/ws-api.cc apiZoneNameToId, apiZoneIdToName)', () => {
  it.each([
    ['example.com', 'example.com.'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example.'],
    ['a_b.example', 'a=5Fb.example.'],
  ])('%s has the id %s, and back', (name, id) => {
    expect(zoneId(name)).toBe(id);
    expect(zoneNameOfId(id)).toBe(name);
  });

  it('reads ids with or without the dot, in any case, escaped or not', () => {
    for (const id of ['example.com', 'Example.COM.', 'example=2Ecom=2E', 'example=2ecom']) expect(zoneNameOfId(id)).toBe('example.com');
    expect(() => zoneNameOfId('example=ZZ')).toThrow(/escape/);
    expect(() => zoneNameOfId('example=2')).toThrow(/escape/);
  });

  it('names are absolute with or without the trailing dot', () => {
    expect(asAbsolute('www.example.com')).toBe('www.example.com.');
    expect(asAbsolute(' www.example.com. ')).toBe('www.example.com.');
  });
});
