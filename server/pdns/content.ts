/**
 * Record content both ways. PowerDNS's `content` is master-file rdata on one line: names
 * absolute with the trailing dot, TXT as quoted character-strings (`"v=spf1 -all"`).
 * zonedeck's canonical content has names without the dot and TXT unquoted; the record-type
 * registry reads and prints both, so nothing here knows a type's fields.
 */
import { RuleError } from '../core/errors';
import { tokenize } from '../core/rdata/presentation';
import type { RecordType } from '../core/record-types';
import { RECORD_TYPE_BY_NAME } from '../core/record-types';

/**
 * Canonical content of PowerDNS content. Names in it are absolute with or without the
 * trailing dot. TXT must be quoted, as PowerDNS requires: unquoted words would otherwise be
 * joined into one text without their spaces. Throws RuleError.
 */
export function contentFromPdns(type: RecordType, text: string): string {
  const tokens = tokenize(text);
  if (type.type === 'TXT' && (tokens.length === 0 || tokens.some((t) => !t.quoted))) {
    throw new RuleError(`TXT: content must be one or more quoted strings, as in a zone file: "${text.replace(/"/g, '')}"`);
  }
  return type.fromText(text);
}

/** PowerDNS content of stored canonical content (stored content that does not read is shown as it is). */
export function contentToPdns(recordType: string, content: string): string {
  const type = RECORD_TYPE_BY_NAME.get(recordType);
  if (!type) return content;
  try {
    return type.pdnsText(content);
  } catch {
    return content;
  }
}
