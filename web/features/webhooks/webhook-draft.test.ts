import { describe, expect, it } from 'vitest';
import { createBody, NEW_WEBHOOK, updateBody, webhookErrors, zonesError, zonesOf } from './webhook-draft';
import { attemptText } from './webhook-words';

describe('webhook draft', () => {
  it('reads zones separated by commas, spaces or lines, without a trailing dot', () => {
    expect(zonesOf(' Example.com., example.net\nexample.org ')).toEqual(['example.com', 'example.net', 'example.org']);
    expect(zonesOf('  ')).toEqual([]);
  });

  it('sends only what was given on creation, and everything on a change', () => {
    expect(createBody({ ...NEW_WEBHOOK, url: ' https://hooks.example/z ' })).toEqual({ url: 'https://hooks.example/z', events: ['zone.changed'] });
    expect(createBody({ ...NEW_WEBHOOK, url: 'https://h.example', zones: 'a.example', team: 'web', description: ' ops ' })).toEqual({
      url: 'https://h.example',
      events: ['zone.changed'],
      zones: ['a.example'],
      team: 'web',
      description: 'ops',
    });
    expect(updateBody({ ...NEW_WEBHOOK, url: 'https://h.example', team: 'web', active: false })).toEqual({
      url: 'https://h.example',
      events: ['zone.changed'],
      zones: null,
      description: '',
      active: false,
    });
  });

  it('asks for a URL and at least one event', () => {
    expect(webhookErrors({ ...NEW_WEBHOOK, events: [] })).toEqual({ url: 'is required', events: 'must name at least one event' });
  });

  it('names the zone the server refused', () => {
    expect(zonesError({ 'zones.1': 'is not one of your zones' }, ['a.example', 'b.example'])).toBe('b.example: is not one of your zones');
    expect(zonesError({ 'zones[0]': 'is not one of your zones' }, ['a.example'])).toBe('a.example: is not one of your zones');
    expect(zonesError({ url: 'x' }, [])).toBeUndefined();
  });
});

describe('attemptText', () => {
  it('gives the status code, or the error when the receiver never answered', () => {
    expect(attemptText({ status_code: 200, error: null, ms: 12 })).toBe('HTTP 200 in 12 ms');
    expect(attemptText({ status_code: null, error: 'connection refused', ms: 3 })).toBe('connection refused after 3 ms');
  });
});
