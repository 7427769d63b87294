/** Stored rows as the API shows them (SPEC.md §2): exact field names and JSON types. */
import { toFqdn } from '../core/domain-name';
import type { DomainRow, RecordRow } from '../store/types';

export function domainView(d: DomainRow) {
  return {
    name: d.name,
    delegated: d.delegated,
    created_at: d.created_at,
    updated_at: d.updated_at,
    serial_number: d.serial_number,
    refresh_interval: d.refresh_interval,
    retry_interval: d.retry_interval,
    expire_interval: d.expire_interval,
    minimum_ttl: d.minimum_ttl,
    dnssec_enabled: d.dnssec_enabled,
  };
}

export function recordView(zone: Pick<DomainRow, 'name'>, r: RecordRow) {
  return {
    id: r.id,
    name: r.name,
    record_type: r.record_type,
    content: r.content,
    ttl: String(r.ttl),
    fqdn: toFqdn(r.name, zone.name),
  };
}
