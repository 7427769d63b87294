/**
 * Internationalized names as people write them: `bücher.example` shown, with the A-label form
 * (`xn--bcher-kva.example`) the DNS and the API use beside it. punycode.js (RFC 3492) decodes;
 * browsers offer no API for it.
 */
import { toUnicode } from 'punycode/punycode.es6.js';

/** The name in Unicode, or null when it has no A-label (nothing to show beside it). */
export function unicodeName(name: string): string | null {
  if (!/(^|\.)xn--/i.test(name)) return null;
  try {
    const u = toUnicode(name);
    return u === name || u.split('.').some((label) => label === '') ? null : u;
  } catch {
    return null;
  }
}
