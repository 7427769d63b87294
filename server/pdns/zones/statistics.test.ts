/** GET …/statistics: the server's uptime as PowerDNS names it; 422 for a statistic zonedeck does not keep. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdnsHarness, type PdnsHarness } from '../../testing/pdns-harness';

const STATS = '/api/v1/servers/localhost/statistics';

let h: PdnsHarness;
beforeAll(async () => {
  h = await pdnsHarness();
});
afterAll(() => h.t.close());

describe('statistics', () => {
  it('all, or one by name: uptime in whole seconds, as a string', async () => {
    for (const path of [STATS, `${STATS}?statistic=uptime`]) {
      const res = await h.json('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ type: 'StatisticItem', name: 'uptime', value: expect.stringMatching(/^[0-9]+$/) }]);
    }
  });

  it('422 Unknown statistic name for another', async () => {
    expect(await h.json('GET', `${STATS}?statistic=uptimeAAAA`)).toEqual({ status: 422, body: { error: 'Unknown statistic name' } });
  });
});
