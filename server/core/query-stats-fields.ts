/**
 * The counters of per-zone query statistics, in the order the DNS thread keeps
 * them in its arrays and the store keeps them as columns: one list shared by the counter, the
 * store, the API and the dashboard. Every counter adds up, so rows of several nodes, minutes or
 * flushes sum to the same thing as one row counted at once.
 */
export const RCODE_FIELDS = ['noerror', 'nxdomain', 'nodata', 'refused', 'servfail', 'other_rcode'] as const;
export const TRANSPORT_FIELDS = ['udp', 'tcp', 'dnssec_ok', 'truncated'] as const;

/** The query types counted apart; every other type is `other`. */
export const QTYPES = { a: 1, ns: 2, cname: 5, soa: 6, ptr: 12, mx: 15, txt: 16, aaaa: 28, srv: 33, ds: 43, dnskey: 48, svcb: 64, https: 65, any: 255, caa: 257 } as const;
export type QtypeName = keyof typeof QTYPES | 'other';
export const QTYPE_NAMES = [...(Object.keys(QTYPES) as Array<keyof typeof QTYPES>), 'other'] as const satisfies readonly QtypeName[];
export const QTYPE_FIELDS = QTYPE_NAMES.map((n) => `qtype_${n}` as const);

export const STAT_FIELDS = ['queries', ...RCODE_FIELDS, ...TRANSPORT_FIELDS, ...QTYPE_FIELDS] as const;
export type StatField = (typeof STAT_FIELDS)[number];
export type StatCounts = Record<StatField, number>;

/** Index of each counter in the arrays the DNS thread fills. */
export const SLOT = Object.fromEntries(STAT_FIELDS.map((f, i) => [f, i])) as Record<StatField, number>;

/** Which top list: every name asked, or the names answered NXDOMAIN. */
export const TOP_KINDS = ['names', 'nxdomain'] as const;
export type TopKind = (typeof TOP_KINDS)[number];

/** One zone's counts of a period, as the DNS thread hands them to the main thread: counters by SLOT, and its top-list names with their counts. */
export interface ZoneStatsBatch {
  id: number;
  name: string;
  counts: number[];
  names: Array<[string, number]>;
  nxdomain: Array<[string, number]>;
}

/** What the DNS thread hands on of a period, for the main thread to store (services/analytics). */
export interface StatsBatch {
  /** Seconds since 1970 of the minute the period lies in. */
  minute: number;
  zones: ZoneStatsBatch[];
  /** Answers in no hosted zone (REFUSED, malformed queries), and those of zones past MAX_ZONES. */
  unattributed: number[];
}
