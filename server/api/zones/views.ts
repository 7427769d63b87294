/** Stored rows as the API shows them: exact field names and JSON types. */
import { APEX, toFqdn } from '../../core/domain-name';
import { nameFromPlace } from '../../services/zones/zones';
import { transferList } from '../../core/zone-transfers';
import { readPolicy } from '../../core/dnssec-policy';
import { DIGEST_SHA256, dnskeyText, dsText } from '../../services/dnssec/key-material';
import type { DnssecPublicKey, DomainRow, ListedRecord } from '../../store/types';
import type { TransferView } from '../../services/secondary/secondaries';

/**
 * What the parent zone needs to complete the chain of trust (RFC 4034 §5): one DS per key
 * (two during a rollover), in the form registrars ask for, and the DNSKEYs for the
 * registries that take those instead. Never the private key.
 */
function dnssecView(zone: string, keys: readonly DnssecPublicKey[]) {
  return {
    // What the parent should point at now (the CDS set): both keys while a rollover asks it for the new one.
    ds_records: keys
      .filter((k) => k.in_cds)
      .map((k) => ({
        key_tag: k.key_tag,
        algorithm: k.algorithm,
        digest_type: DIGEST_SHA256,
        digest: k.ds_digest,
        ds: dsText(zone, k),
        created_at: k.created_at,
      })),
    dnskey_records: keys.filter((k) => k.published).map((k) => dnskeyText(zone, k)),
  };
}

/** A domain as the API shows it; `keys` are its DNSSEC keys (none when unsigned), `transfer` a secondary's state. */
export function domainView(d: DomainRow, keys: readonly DnssecPublicKey[] = [], transfer?: TransferView) {
  const secondary = d.kind === 'secondary' ? { tsig_key: d.tsig_key ?? null, ...(transfer ? { transfer } : {}) } : {};
  return {
    name: d.name,
    delegated: d.delegated,
    delegation: (d.delegation_checked ? (d.delegated ? 'delegated' : 'not_delegated') : 'unknown') as 'unknown' | 'delegated' | 'not_delegated',
    created_at: d.created_at,
    updated_at: d.updated_at,
    serial_number: d.serial_number,
    refresh_interval: d.refresh_interval,
    retry_interval: d.retry_interval,
    expire_interval: d.expire_interval,
    minimum_ttl: d.minimum_ttl,
    dnssec_enabled: d.dnssec_enabled,
    ...dnssecView(d.name, d.dnssec_enabled ? keys : []),
    kind: d.kind ?? 'primary',
    primaries: d.primaries ?? [],
    ...secondary,
    also_notify: transferList(d.also_notify),
    allow_transfer: transferList(d.allow_transfer),
    transfer_tsig_key: d.transfer_tsig_key ?? null,
    dnssec_policy: readPolicy(d.dnssec_policy),
  };
}

/** A record as the API shows it; `name` is relative to `base`, the place it was asked for at; `comment` is its RRset's. */
export function recordView(zone: Pick<DomainRow, 'name'>, r: ListedRecord, base = APEX, comment?: string) {
  const view = {
    id: r.id,
    name: nameFromPlace(r.name, base) ?? r.name,
    record_type: r.record_type,
    content: r.content,
    ttl: String(r.ttl),
    fqdn: toFqdn(r.name, zone.name),
  };
  // the shape of the interface specification for every served record; a disabled one (kept, never served) says so.
  const shown = r.disabled ? { ...view, disabled: true as const } : view;
  return comment ? { ...shown, comment } : shown;
}
