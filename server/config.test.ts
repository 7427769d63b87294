import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('CATALOG_ZONE', () => {
  it('is unset by default, and stored as the API stores zone names (lower case, A-labels, no trailing dot)', () => {
    expect(loadConfig({}).catalogZone).toBeUndefined();
    expect(loadConfig({ CATALOG_ZONE: 'Catalog.Example.NET.' }).catalogZone).toBe('catalog.example.net');
    expect(loadConfig({ CATALOG_ZONE: 'katalog.bücher.example' }).catalogZone).toBe('katalog.xn--bcher-kva.example');
  });

  it('stops the start with a message naming the variable when it is not a zone name', () => {
    for (const bad of ['catalog', 'bad_label.example.net', 'a..b', '-x.example']) {
      expect(() => loadConfig({ CATALOG_ZONE: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ CATALOG_ZONE: bad })).toThrow(/CATALOG_ZONE: must be a domain name like catalog\.example\.net/);
    }
  });
});
