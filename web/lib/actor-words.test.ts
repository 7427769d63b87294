import { describe, expect, it } from 'vitest';
import { actorWords, changeSentence, credentialWords, sourceLabel } from './actor-words';

describe('credentialWords', () => {
  it('names every kind of credential in words', () => {
    expect(credentialWords('token:7')).toBe('API token #7');
    expect(credentialWords('session')).toBe('dashboard session');
    expect(credentialWords('cli')).toBe('admin CLI');
    expect(credentialWords('tsig:acme-key')).toBe('TSIG key acme-key');
    expect(credentialWords('system')).toBe('zonedeck itself');
    expect(credentialWords('something-new')).toBe('something-new');
  });
});

describe('actorWords', () => {
  it('puts the user first and the credential in brackets', () => {
    expect(actorWords({ username: 'alice', credential: 'token:7' })).toBe('alice (API token #7)');
    expect(actorWords({ username: '', credential: 'tsig:k1' })).toBe('TSIG key k1');
    expect(actorWords({ username: 'alice', credential: 'system' })).toBe('zonedeck');
  });
});

describe('changeSentence', () => {
  const now = Date.parse('2026-11-23T10:00:12Z');
  it('says who changed the zone, how long ago to the second, and from where', () => {
    const cs = { actor: { username: 'alice', credential: 'token:7' }, source: 'api' as const, created_at: '2026-11-23T10:00:00Z' };
    expect(changeSentence(cs, 'example.com', now)).toBe('alice changed example.com 12 s ago via the API');
    expect(changeSentence({ ...cs, source: 'dashboard', created_at: '2026-11-23T09:55:00Z' }, 'example.com', now)).toBe('alice changed example.com 5 min ago in the dashboard');
    expect(changeSentence({ ...cs, actor: { username: '', credential: 'tsig:k1' }, source: 'rfc2136' }, 'example.com', now)).toBe(
      'TSIG key k1 changed example.com 12 s ago by a dynamic update (RFC 2136)',
    );
    expect(changeSentence({ ...cs, created_at: '2026-11-23T10:00:10Z' }, 'example.com', now)).toBe('alice changed example.com just now via the API');
  });

  it('labels sources for the filter, and passes unknown ones through', () => {
    expect(sourceLabel('cli')).toBe('Admin CLI');
    expect(sourceLabel('later')).toBe('later');
  });
});
