/**
 * GET …/statistics (pdns/ws-api.cc `apiServerStatistics`), with the one statistic zonedeck keeps
 * per process that is the server's and no tenant's: `uptime`, in seconds, as PowerDNS names it.
 * PowerDNS's query counters (`response-by-qtype`, `queries`, …) are not answered: zonedeck counts
 * DNS traffic on its Prometheus endpoint (`/metrics`), not per PowerDNS statistic. `?statistic=x`
 * answers that one, and 422 `Unknown statistic name` for another, as PowerDNS does.
 */
import { Hono } from 'hono';
import type { PdnsEnv } from '../auth';
import { unprocessable } from '../errors';

const STATISTICS: Record<string, () => string> = {
  uptime: () => String(Math.floor(process.uptime())),
};

export function statisticsApi() {
  return new Hono<PdnsEnv>().get('/statistics', (c) => {
    const one = c.req.query('statistic');
    if (one !== undefined && one !== '') {
      const read = STATISTICS[one];
      if (!read) throw unprocessable('Unknown statistic name');
      return c.json([{ type: 'StatisticItem', name: one, value: read() }]);
    }
    return c.json(Object.entries(STATISTICS).map(([name, read]) => ({ type: 'StatisticItem', name, value: read() })));
  });
}
