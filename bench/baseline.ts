/**
 * Figures measured before a change that aimed at them, printed beside today's (the `before`
 * column). The first line of each is the original
 * measurement (wrk, servers on one core), the second `npm run bench -- api` on the morning the
 * work began (2026-11-23), before any of it.
 */
export const BEFORE = {
  ips: '2,068 req/s = 13% (issue); 3,332 req/s = 45% (bench)',
  recordWrites: '598/s, p99 280 ms (issue); 255/s, p99 397 ms (bench)',
  domainPut: '486/s, p99 243 ms (bench)',
  /** Page 2 of a 1k-record zone, three runs on 2026-11-23 before c20085d (one JSON array per page). */
  recordPage: '1,143–1,312 req/s (bench)',
};
