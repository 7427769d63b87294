import { describe, expect, it } from 'vitest';
import { AUDIT_KINDS } from '../../../server/services/identity/audit';
import { auditActorWords, auditFilterOfParams, detailParts, kindLabel, KIND_LABELS } from './audit-words';

describe('kindLabel', () => {
  it('words every kind the API records, and passes a new one through', () => {
    expect(Object.keys(KIND_LABELS).sort()).toEqual([...AUDIT_KINDS].sort());
    expect(kindLabel('member-added')).toBe('Member added');
    expect(kindLabel('sign-in-failed')).toBe('Sign-in failed');
    expect(kindLabel('some-future-kind')).toBe('some-future-kind');
  });
});

describe('auditActorWords', () => {
  it('names the user and the credential they used', () => {
    expect(auditActorWords({ username: 'alice', credential: 'session' })).toBe('alice (dashboard session)');
    expect(auditActorWords({ username: 'alice', credential: 'token:7' })).toBe('alice (API token #7)');
    expect(auditActorWords({ username: null, credential: 'cli' })).toBe('admin CLI');
    expect(auditActorWords({ username: 'alice', credential: 'password' })).toBe('alice (password)');
    expect(auditActorWords({ username: null, credential: 'password' })).toBe('not signed in');
  });
});

describe('detailParts', () => {
  it('reads the details as short key: value parts, skipping empty ones', () => {
    expect(detailParts({ role: 'editor', previous_role: 'viewer', label: '', count: 2, scope: { read_only: true } })).toEqual([
      'role: editor',
      'previous role: viewer',
      'count: 2',
      'scope: {"read_only":true}',
    ]);
    expect(detailParts(null)).toEqual([]);
  });
});

describe('auditFilterOfParams', () => {
  it('reads the filters and page from the URL and ignores a kind it does not know', () => {
    expect(auditFilterOfParams(new URLSearchParams('kind=sign-in&username=%20alice%20&team=ops&page=3'))).toEqual({ kind: 'sign-in', username: 'alice', team: 'ops', page: 3 });
    expect(auditFilterOfParams(new URLSearchParams('kind=nonsense&page=-2'))).toEqual({ kind: '', username: '', team: '', page: 1 });
  });
});
