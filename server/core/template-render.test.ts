import { describe, expect, it } from 'vitest';
import { RuleError } from './errors';
import { fill, placeholders, unfill, variableRefusal } from './template-render';

describe('template placeholders', () => {
  it('fills {zone} and variables, and names a variable that is missing', () => {
    expect(fill('10 {mx}.', 'example.com', { mx: 'mx.example.net' })).toBe('10 mx.example.net.');
    expect(fill('v=DMARC1; rua=mailto:d@{zone}', 'example.com', {})).toBe('v=DMARC1; rua=mailto:d@example.com');
    expect(() => fill('{ip}', 'example.com', {})).toThrow(RuleError);
    expect(() => fill('{ip}', 'example.com', {})).toThrow('uses {ip}');
    expect(placeholders('{a} {zone} {b_2} {Not}')).toEqual(['a', 'b_2']);
  });

  it('turns the zone name back into {zone} only where it is a whole name or the tail of one', () => {
    expect(unfill('10 mail.example.com', 'example.com')).toBe('10 mail.{zone}');
    expect(unfill('example.com', 'example.com')).toBe('{zone}');
    expect(unfill('v=spf1 include:_spf.example.com -all', 'example.com')).toBe('v=spf1 include:_spf.{zone} -all');
    expect(unfill('10 mail.notexample.com', 'example.com')).toBe('10 mail.notexample.com');
    expect(unfill('192.0.2.1', 'example.com')).toBe('192.0.2.1');
  });

  it('bounds variable names and values', () => {
    expect(variableRefusal('mx', 'mx.example.net')).toBeNull();
    expect(variableRefusal('zone', 'x')).toMatch(/always the zone/);
    expect(variableRefusal('Bad-Name', 'x')).toMatch(/lower-case/);
    expect(variableRefusal('v', 'x'.repeat(256))).toMatch(/at most 255/);
    expect(variableRefusal('v', 'a{b}')).toMatch(/braces/);
  });
});
