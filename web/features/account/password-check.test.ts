import { describe, expect, it } from 'vitest';
import { hasProblems, passwordProblems } from './password-check';

describe('passwordProblems', () => {
  it('asks for each missing field by name', () => {
    expect(passwordProblems({ current: '', next: '', confirm: '' })).toEqual({ current: 'is required', next: 'is required' });
  });

  it('wants the new password typed twice alike, and different from the current one', () => {
    expect(passwordProblems({ current: 'old-pw', next: 'new-pw-1', confirm: 'new-pw-2' })).toEqual({ confirm: 'does not match the new password' });
    expect(passwordProblems({ current: 'same', next: 'same', confirm: 'same' })).toEqual({ next: 'must differ from the current password' });
  });

  it('has nothing to say about a complete change', () => {
    const p = passwordProblems({ current: 'old-pw', next: 'a new one', confirm: 'a new one' });
    expect(p).toEqual({});
    expect(hasProblems(p)).toBe(false);
    expect(hasProblems({ confirm: 'does not match the new password' })).toBe(true);
  });
});
