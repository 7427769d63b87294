/**
 * PowerDNS's search patterns (its `SimpleMatch`, case-folded, as `search-data` uses it): `*` stands
 * for any run of characters, `?` for one, anything else for itself, and the pattern covers the
 * whole text. No regular expression: the parts between stars are found leftmost, one after
 * another, so a pattern such as `*a*a*a*b` costs a pass over the text per part, never the
 * exponential backtracking a hostile pattern could force out of a regex.
 */

/** Whether `part` (which may hold `?`) matches `text` at `i`. */
function matchesAt(text: string, i: number, part: string): boolean {
  for (let k = 0; k < part.length; k++) {
    const p = part[k];
    if (p !== '?' && p !== text[i + k]) return false;
  }
  return true;
}

/** Where `part` first matches `text` from `from` on, ending at or before `end`; -1 if nowhere. */
function find(text: string, part: string, from: number, end: number): number {
  if (!part.includes('?')) {
    const i = text.indexOf(part, from);
    return i >= 0 && i + part.length <= end ? i : -1;
  }
  for (let i = from; i + part.length <= end; i++) if (matchesAt(text, i, part)) return i;
  return -1;
}

/** A test of texts against the pattern, ignoring case. */
export function globMatcher(pattern: string): (text: string) => boolean {
  const parts = pattern.toLowerCase().split('*');
  const first = parts[0]!;
  if (parts.length === 1) {
    return (raw) => {
      const text = raw.toLowerCase();
      return text.length === first.length && matchesAt(text, 0, first);
    };
  }
  const last = parts[parts.length - 1]!;
  const middle = parts.slice(1, -1).filter((p) => p !== '');
  return (raw) => {
    const text = raw.toLowerCase();
    const end = text.length - last.length;
    if (end < first.length || !matchesAt(text, 0, first) || !matchesAt(text, end, last)) return false;
    let at = first.length;
    for (const part of middle) {
      const i = find(text, part, at, end);
      if (i < 0) return false;
      at = i + part.length;
    }
    return true;
  };
}
