/**
 * One rule for every text a user sends (names, labels, usernames, comments, TXT content):
 * control characters and unpaired surrogates are refused, on every store alike. PostgreSQL
 * text cannot hold NUL at all and neither database can hold half a surrogate pair, so storing
 * them would either fail or change the text. TXT data that really holds such octets is written
 * in its presentation form, `\DDD` (RFC 1035 §5.1), which is carried losslessly.
 */
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Text that is a file (a zone file in JSON) may hold its line breaks and tabs. */
const CONTROL_IN_FILE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Fields whose value is the text of a file: tabs and line breaks allowed there. */
export const FILE_FIELDS: ReadonlySet<string> = new Set(['zone_file']);
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const CONTROL_MESSAGE = 'must not contain control characters (U+0000–U+001F, U+007F); in TXT content write such an octet as \\DDD, e.g. \\009 for a tab';
export const SURROGATE_MESSAGE = 'must be valid Unicode text (it holds an unpaired surrogate)';

/** What is wrong with a text under the rule, or null when it may be stored. */
export function textProblem(s: string, file = false): string | null {
  if ((file ? CONTROL_IN_FILE : CONTROL).test(s)) return CONTROL_MESSAGE;
  if (LONE_SURROGATE.test(s)) return SURROGATE_MESSAGE;
  return null;
}

/**
 * Every string in a parsed JSON value (object keys too) that breaks the rule, by its path
 * (`content`, `rrsets.1.records.0`); at most `max` of them.
 */
export function textProblems(value: unknown, max = 20): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  const walk = (v: unknown, path: string): void => {
    if (n >= max) return;
    if (typeof v === 'string') {
      const p = textProblem(v, FILE_FIELDS.has(path));
      if (p) {
        out[path || 'body'] = p;
        n++;
      }
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, path ? `${path}.${i}` : String(i)));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        const at = path ? `${path}.${k}` : k;
        const keyProblem = textProblem(k);
        if (keyProblem && n < max) {
          out[at] = `field name ${keyProblem}`;
          n++;
        }
        walk(item, at);
      }
    }
  };
  walk(value, '');
  return out;
}
