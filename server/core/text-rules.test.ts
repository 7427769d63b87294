import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textProblem, textProblems } from './text-rules';

describe('the text rule', () => {
  it('lets ordinary text through, in any script', () => {
    for (const s of ['', 'v=spf1 -all', 'bücher', '日本語', '💥 emoji', 'a\\000b']) expect(textProblem(s)).toBeNull();
  });

  it('refuses every control character and DEL', () => {
    for (let c = 0; c < 0x20; c++) expect(textProblem(`a${String.fromCharCode(c)}b`)).toMatch(/control characters/);
    expect(textProblem('\u007f')).toMatch(/control characters/);
  });

  it('refuses unpaired surrogates but not pairs', () => {
    expect(textProblem('\ud800')).toMatch(/unpaired surrogate/);
    expect(textProblem('x\udc00')).toMatch(/unpaired surrogate/);
    expect(textProblem('\ud83d\udca5')).toBeNull();
  });

  it('names each bad string of a body by its path', () => {
    expect(textProblems({ name: 'www', content: 'a\u0000b', rrsets: [{ records: ['ok', '\ud800'] }] })).toEqual({
      content: expect.stringMatching(/control/),
      'rrsets.0.records.1': expect.stringMatching(/surrogate/),
    });
  });

  it('a string survives UTF-8 storage exactly when the rule lets it through', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const roundTrip = Buffer.from(s, 'utf8').toString('utf8') === s && !s.includes('\u0000');
        if (textProblem(s) === null) expect(roundTrip).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
