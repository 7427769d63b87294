/**
 * What a record change must look like from outside: through the public API now, and
 * through a real DNS query once the DNS server serves the zones (server/dns). Specs call
 * these after each change, so adding the `dig` side is one edit here.
 */
import { expect } from '@playwright/test';
import type { ApiClient } from './api-client';
import type { ServerInfo } from './server-info';

export interface Expected {
  name: string;
  record_type: string;
  content: string;
  ttl?: string;
}

export async function expectServed(api: ApiClient, _server: ServerInfo, domain: string, rec: Expected): Promise<void> {
  await expect
    .poll(async () => (await api.records(domain, `name=${encodeURIComponent(rec.name)}`)).filter((r) => r.record_type === rec.record_type).map((r) => ({ content: r.content, ttl: r.ttl })))
    .toContainEqual(rec.ttl ? { content: rec.content, ttl: rec.ttl } : expect.objectContaining({ content: rec.content }));
  // TODO(dns): when _server.dnsPort is set, also `dig @127.0.0.1 -p <port> <fqdn> <type> +short` and expect the content.
}

export async function expectNotServed(api: ApiClient, _server: ServerInfo, domain: string, rec: Omit<Expected, 'ttl'>): Promise<void> {
  await expect
    .poll(async () => (await api.records(domain, `name=${encodeURIComponent(rec.name)}`)).filter((r) => r.record_type === rec.record_type).map((r) => r.content))
    .not.toContain(rec.content);
  // TODO(dns): and the DNS answer no longer contains it.
}
