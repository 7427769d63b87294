/**
 * Reads a master file (RFC 1035 §5, RFC 2308 §4 for $TTL, RFC 3597 §5 for TYPEnnn and
 * `\#`) into records of the registry's canonical content, as BIND, Knot, PowerDNS
 * (`pdnsutil list-zone`) and Cloudflare exports write them. Every problem is collected with
 * its line, so one answer can list them all. DNSSEC records, which exports of signed zones
 * hold and zonedeck makes itself, are reported as ignored, as is the apex NS set, which
 * belongs to the service.
 */
import { Invalid } from '../errors';
import type { ParsedZoneFile, ParseOptions, ZoneFileError } from './types';
import { ZoneFileReader } from './zone-file-reader';

export type { ParsedZoneFile, ParseOptions, ZoneFileError, ZoneFileIgnored, ZoneFileRecord, ZoneFileSoa } from './types';

/** Reads a master file at once (the dashboard's preview, small files). See `parseZoneFileChunked` for big ones. */
export function parseZoneFile(text: string, origin: string, opts: ParseOptions = {}): ParsedZoneFile {
  const steps = new ZoneFileReader(text, origin, opts).steps();
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}

/**
 * Reads a master file in chunks, yielding to the event loop every few thousand entries, so that a
 * big import never holds the process for more than a few milliseconds at a time.
 */
export async function parseZoneFileChunked(text: string, origin: string, opts: ParseOptions = {}): Promise<ParsedZoneFile> {
  const steps = new ZoneFileReader(text, origin, opts).steps();
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done) return r.value;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** The errors as the API answers them: 400 with `fields` keyed `line <n>`. */
export function zoneFileInvalid(errors: readonly ZoneFileError[]): Invalid {
  const fields: Record<string, string> = {};
  for (const e of errors) {
    const key = `line ${e.line}`;
    fields[key] = fields[key] ? `${fields[key]}; ${e.message}` : e.message;
  }
  const n = errors.length;
  return new Invalid(fields, `the zone file has ${n === 1 ? 'an error' : `${n} errors`}: ${errors[0] ? `line ${errors[0].line}: ${errors[0].message}` : ''}`);
}

/** Parses and throws Invalid (fields keyed `line <n>`) when the file has any error. */
export function parseZoneFileOrThrow(text: string, origin: string, opts?: ParseOptions): Omit<ParsedZoneFile, 'errors'> {
  const parsed = parseZoneFile(text, origin, opts);
  if (parsed.errors.length > 0) throw zoneFileInvalid(parsed.errors);
  return parsed;
}
