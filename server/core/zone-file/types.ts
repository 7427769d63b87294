/** What reading a master file answers, and the options of the reading. */
export interface ZoneFileRecord {
  /** Relative to the zone, '@' for the apex. */
  name: string;
  record_type: string;
  ttl: number;
  /** Canonical content, as the API stores it. */
  content: string;
  line: number;
}

/** An SOA's fields (RFC 1035 §3.3.13), as read from a file and as printed into one. */
export interface SoaFields {
  /** Absolute, no trailing dot. */
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

/** The SOA read from a file: its names lower case, its TTL as the file gives or implies it. */
export interface ZoneFileSoa extends SoaFields {
  ttl: number;
  line: number;
}

export interface ZoneFileIgnored {
  line: number;
  name: string;
  record_type: string;
  reason: string;
}

export interface ZoneFileError {
  line: number;
  message: string;
}

export interface ParsedZoneFile {
  records: ZoneFileRecord[];
  soa?: ZoneFileSoa;
  ignored: ZoneFileIgnored[];
  errors: ZoneFileError[];
}

export interface ParseOptions {
  /** TTL of records when the file gives none and has no $TTL (the zone's minimum_ttl). Default 3600. */
  defaultTtl?: number;
  /** Collecting stops after this many errors. Default 20. */
  maxErrors?: number;
  /** Keep apex NS records among the records instead of listing them as ignored. */
  keepApexNs?: boolean;
  /**
   * Reading stops with an error past this many records ($GENERATE makes many from one line, and is
   * counted before it makes any). The service passes MAX_RECORDS_PER_ZONE. Default 200,000.
   */
  maxRecords?: number;
}
