/**
 * PowerDNS's own words for the refusals it shares with zonedeck, put before zonedeck's reason so
 * that a client (or PowerDNS's API suite) that looks for PowerDNS's text finds it, and a person
 * still reads why: `RRset a.example.org. IN A: Conflicts with pre-existing RRset: rrsets.0: …`.
 * The texts are PowerDNS's (pdns/ws-auth.cc, ws-api.cc, check-zone.cc, dnsrecords.cc,
 * rcpgenerator.cc); each is chosen by the rule zonedeck applied, which its message names.
 */

/** Characters PowerDNS takes in a name (ws-api.cc `apiCheckNameAllowedCharacters`); non-ASCII is IDN, which zonedeck reads. */
const UNSUPPORTED = /[\x00-\x2c:-@[-^`{-\x7f]/;

/** `Name '…' contains unsupported characters` for a name PowerDNS refuses so (a leading `*.` aside), else null. */
export function nameWords(name: string): string | null {
  const bare = name.startsWith('*.') ? name.slice(2) : name;
  return UNSUPPORTED.test(bare) ? `Name '${name.slice(0, 255)}' contains unsupported characters` : null;
}

/** Whether an absolute name (with or without its dot) is the zone's or below it. */
export function isInZone(name: string, zone: string): boolean {
  const n = name.trim().toLowerCase().replace(/\.$/, '');
  return n === zone || n.endsWith(`.${zone}`);
}

/** The first character PowerDNS refuses outside quotes in content (`(`, `)`, `;`, a control character), or null. */
function invalidCharacter(content: string): string | null {
  let quoted = false;
  for (let i = 0; i < content.length; i++) {
    const ch = content[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '"') quoted = !quoted;
    else if (ch < ' ' || ch === '\x7f') return `\\x${ch.charCodeAt(0).toString(16)}`;
    else if (!quoted && (ch === '(' || ch === ')' || ch === ';')) return `'${ch}'`;
  }
  return null;
}

/** PowerDNS's words for content it refuses before reading it: empty, or with a character a zone file gives a meaning to. */
export function contentWords(content: string): string | null {
  const shown = content.slice(0, 255);
  if (content.trim() === '') return `missing field at the end of record content '${shown}'`;
  const bad = invalidCharacter(content.trim());
  return bad ? `Invalid character ${bad} in record content '${shown}'` : null;
}

/** The types whose target PowerDNS checks is a host name (dnsrecords.cc `checkHostnameCorrectness`). */
const HOST_TARGETS = new Set(['NS', 'MX', 'SRV']);

/** `non-hostname content x.` when zonedeck refused the target of an NS, MX or SRV for its labels, else null. */
export function hostnameWords(type: string, content: string, message: string): string | null {
  if (!HOST_TARGETS.has(type) || !/label .* may contain only|empty labels/.test(message)) return null;
  const target = content.trim().split(/\s+/).at(-1) ?? '';
  return `non-hostname content ${target.slice(0, 255)}`;
}

/**
 * PowerDNS's words for a rule of the zone that zonedeck's services refused, or null. In a PATCH a
 * CNAME beside other data "Conflicts with pre-existing RRset"; replacing the whole zone (PUT), its
 * check of the new records says what it conflicts with.
 */
export function ruleWords(message: string, replacingAll = false): string | null {
  if (/can have only one (CNAME|DNAME) record|a CNAME record already exists at /.test(message)) return 'only one such record allowed';
  if (/a CNAME record cannot stand at the zone apex/.test(message)) return replacingAll ? 'conflicts with existing NS RRset of the same name' : 'Conflicts with pre-existing RRset';
  if (/no other record can stand beside it|a CNAME must be the only record at its name/.test(message))
    return replacingAll ? 'conflicts with existing RRset of the same name' : 'Conflicts with pre-existing RRset';
  if (/a DNAME cannot stand beside the NS records/.test(message)) return 'Cannot have both NS and DNAME except in zone apex';
  if (/a DS record belongs in the parent zone/.test(message)) return 'is not allowed at apex';
  return null;
}

/**
 * `RRset example.org. IN AAAA: Name is out of zone` for a zone-file line zonedeck refused as outside
 * the zone (PowerDNS names the RRset; the type is read from the line: the token after the name,
 * its TTL and class), else null.
 */
export function zoneFileWords(line: string, message: string): string | null {
  const m = /^name (\S+) is outside the zone/.exec(message);
  if (!m) return null;
  const type = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .find((t) => !/^[0-9]+[smhdw]?$/i.test(t) && !/^(IN|CH|HS)$/i.test(t));
  return `RRset ${m[1]} IN ${(type ?? '').toUpperCase()}: Name is out of zone`;
}

/** The types PowerDNS refuses in the API whatever their content (ws-auth.cc `validateGatheredRRType`). */
export const INVALID_TYPES = new Set(['OPT', 'TSIG']);
