/**
 * What a record change must look like from outside: through the public API, and through a
 * real DNS query (`dig`) to this run's DNS port. Specs call these after each change.
 */
import { execFileSync } from 'node:child_process';
import { expect } from '@playwright/test';
import type { ApiClient } from './api-client';
import type { ServerInfo } from './server-info';
import { recordType } from '../../server/core/record-types';

export interface Expected {
  name: string;
  record_type: string;
  content: string;
  ttl?: string;
}

interface Answer {
  content: string;
  ttl: string;
}

const fqdn = (name: string, domain: string) => (name === '@' ? domain : `${name}.${domain}`);

/** TXT rdata as dig prints it ("a" "b") back to the content the API holds: its strings kept. */
const unquote = (rdata: string): string => recordType('TXT').fromText(rdata);

/** The answer records of one type from a real query to this run's DNS server. */
export function dig(server: ServerInfo, name: string, type: string): Answer[] {
  if (server.dnsPort === null) throw new Error('the DNS server is off (DNS_PORT=off)');
  const out = execFileSync('dig', ['@127.0.0.1', '-p', String(server.dnsPort), name, type, '+noall', '+answer', '+norecurse', '+time=2', '+tries=2'], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^(\S+)\s+(\d+)\s+IN\s+(\S+)\s+(.*)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null && m[3] === type)
    .map((m) => ({ ttl: m[2]!, content: type === 'TXT' ? unquote(m[4]!) : m[4]!.replace(/\.$/, '') }));
}

export async function expectServed(api: ApiClient, server: ServerInfo, domain: string, rec: Expected): Promise<void> {
  const want = rec.ttl ? { content: rec.content, ttl: rec.ttl } : expect.objectContaining({ content: rec.content });
  await expect
    .poll(async () => (await api.records(domain, `name=${encodeURIComponent(rec.name)}`)).filter((r) => r.record_type === rec.record_type).map((r) => ({ content: r.content, ttl: r.ttl })))
    .toContainEqual(want);
  if (server.dnsPort !== null) {
    await expect.poll(() => dig(server, fqdn(rec.name, domain), rec.record_type), { message: `dig ${fqdn(rec.name, domain)} ${rec.record_type}` }).toContainEqual(want);
  }
}

export async function expectNotServed(api: ApiClient, server: ServerInfo, domain: string, rec: Omit<Expected, 'ttl'>): Promise<void> {
  await expect.poll(async () => (await api.records(domain, `name=${encodeURIComponent(rec.name)}`)).filter((r) => r.record_type === rec.record_type).map((r) => r.content)).not.toContain(rec.content);
  if (server.dnsPort !== null) {
    await expect.poll(() => dig(server, fqdn(rec.name, domain), rec.record_type).map((a) => a.content), { message: `dig ${fqdn(rec.name, domain)} ${rec.record_type}` }).not.toContain(rec.content);
  }
}
