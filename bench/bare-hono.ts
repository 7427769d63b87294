/** The reference for API figures: a bare Hono JSON handler on the same node-server, nothing else. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

// 50 objects: what GET /api/v1/ips?per_page=50 answers in the benchmark.
const body = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, address: `192.0.2.${i + 1}`, active: true, cidr: 32, ipv4: true, ipv6: false, first: `192.0.2.${i + 1}`, last: `192.0.2.${i + 1}` }));
const app = new Hono();
app.get('/json', (c) => c.json(body));
app.post('/json', async (c) => c.json(await c.req.json()));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
  process.stdout.write(`${JSON.stringify({ msg: 'listening', http: `http://127.0.0.1:${info.port}` })}\n`);
});
