/** Table shapes as kysely sees them (booleans are stored as 0/1 in both databases). */
import type { Generated } from 'kysely';

export interface Database {
  users: {
    id: Generated<number>;
    username: string;
    password_hash: string;
    created_at: string;
    /** Migration 0014: 1 for a user who manages users and every team. */
    is_admin: Generated<number>;
    /** Migration 0014: when the user was disabled (no sign-in, no token works); null while enabled. */
    disabled_at: string | null;
    /** Migration 0018: the user's email address (lower case), which single sign-on matches on; null: none. */
    email: Generated<string | null>;
    /** Migration 0035: 1 while the password is one someone else chose (the first start's, a reset): the dashboard asks for a new one first. */
    must_change_password: Generated<number>;
  };
  /** Migration 0018: OpenID identities linked to users. */
  user_identities: { id: Generated<number>; issuer: string; subject: string; user_id: number; email: Generated<string>; created_at: string; last_used_at: string | null };
  /** Migration 0018: authorization requests in flight (single use, 10 minutes). */
  oidc_logins: { state_hash: string; browser_hash: string; nonce: string; code_verifier: string; next_path: string; expires_at: string; link_user_id: number | null };
  /** Migration 0023: sign-ins through the provider waiting for zonedeck's second factor. */
  pending_sign_ins: { step_hash: string; user_id: number; issuer: string; email: string; how: string; next_path: string; expires_at: string };
  /** Migration 0018: service-wide switches changed at run time. */
  settings: { key: string; value: string };
  /** Migration 0014. */
  teams: { id: Generated<number>; name: string; created_at: string };
  /** Migration 0014: a role change is a new row (a new id). */
  team_members: { id: Generated<number>; team_id: number; user_id: number; role: string; created_at: string };
  /** Migration 0022: pending invitations; `user_id` null: no user had the name, and it never matches. */
  team_invitations: { id: Generated<number>; team_id: number; username: string; user_id: number | null; role: string; invited_by: string; created_at: string };
  /** Migration 0017: a user's TOTP factor; the secret sealed at rest. */
  totp_factors: { user_id: number; secret: string; created_at: string; confirmed_at: string | null; last_step: Generated<number> };
  /** Migration 0031: the TOTP steps a user's codes were accepted for (none is accepted twice). */
  totp_used_steps: { user_id: number; step: number };
  /** Migration 0017: single-use recovery codes, hashed. */
  recovery_codes: { id: Generated<number>; user_id: number; code_hash: string; used_at: string | null };
  /** Migration 0017: WebAuthn credentials. */
  passkeys: { id: string; user_id: number; name: string; public_key: string; counter: Generated<number>; transports: Generated<string>; created_at: string; last_used_at: string | null };
  /** Migration 0017: pending WebAuthn ceremonies' challenges. */
  webauthn_challenges: { challenge: string; user_id: number | null; purpose: string; expires_at: string };
  /** Migration 0014: the account audit log. */
  audit_events: {
    id: Generated<number>;
    created_at: string;
    kind: string;
    actor_user_id: number | null;
    actor_username: string;
    credential: string;
    address: string;
    user_agent: string;
    subject_user_id: number | null;
    subject_username: string;
    team_id: number | null;
    team_name: string;
    /** JSON object. */
    detail: string;
  };
  tokens: {
    id: Generated<number>;
    user_id: number;
    label: string;
    token_hash: string;
    created_at: string;
    last_used_at: string | null;
    expires_at: string | null;
    /** JSON text (migration 0007); '{}' is unrestricted. */
    scope: Generated<string>;
  };
  ips: { id: Generated<number>; user_id: number; address: string; cidr: number; active: number; created_at: string };
  domains: {
    id: Generated<number>;
    user_id: number;
    name: string;
    serial_number: number;
    refresh_interval: number;
    retry_interval: number;
    expire_interval: number;
    minimum_ttl: number;
    dnssec_enabled: number;
    delegated: number;
    /** Migration 0033: a delegation check has answered for the zone (until then `delegated` means nothing). */
    delegation_checked: Generated<number>;
    created_at: string;
    updated_at: string;
    /** Kept by triggers (migration 0004). */
    record_count: Generated<number>;
    /** Kept by triggers (migration 0005). */
    change_count: Generated<number>;
    /** When DNSSEC was last turned off (migration 0009); null while signed or never signed. */
    dnssec_disabled_at: string | null;
    /** Migration 0014: the team that owns the zone; null for a zone of its user alone. */
    team_id: number | null;
    /** Migration 0025: the zone's own NOTIFY targets (JSON list of host:port), transfer networks (JSON list of CIDR) and transfer key. */
    also_notify: Generated<string>;
    allow_transfer: Generated<string>;
    transfer_tsig_key: string | null;
    /** Migration 0024: `primary` or `secondary`; for a secondary its primaries (JSON), key, SOA names and expiry. */
    kind: Generated<string>;
    primaries: string | null;
    tsig_key: string | null;
    soa_mname: string | null;
    soa_rname: string | null;
    expires_at: string | null;
    /** Migration 0027: the catalog a secondary zone is a member of; null for one made by hand. */
    catalog_id: number | null;
    /** Migration 0028: the zone's DNSSEC policy and the rollover in progress (JSON text; null: defaults, none). */
    dnssec_policy: string | null;
    dnssec_rollover: string | null;
    /** Migration 0029: the zone's health-checked pools (JSON text; null: none). */
    pools: string | null;
  };
  /** Migration 0027: catalogs followed as a consumer (RFC 9432). */
  catalogs: {
    id: Generated<number>;
    zone: string;
    primaries: string;
    tsig_key: string | null;
    user_id: number;
    team_id: number | null;
    created_at: string;
    serial: number | null;
    members: Generated<number>;
    last_check: string | null;
    last_success: string | null;
    error: string | null;
    next_check: string;
    lease_holder: string | null;
    lease_until: string | null;
  };
  /** Migration 0024: the refresh state of each secondary zone. */
  zone_transfers: {
    domain_id: number;
    state: string;
    serial: number | null;
    last_check: string | null;
    last_success: string | null;
    error: string | null;
    failures: Generated<number>;
    next_check: string;
    lease_holder: string | null;
    lease_until: string | null;
  };
  change_sets: {
    id: Generated<number>;
    domain_id: number;
    serial_before: number;
    serial_after: number;
    created_at: string;
    source: string;
    actor_username: string;
    actor_credential: string;
    comment: string;
    /** JSON: {field: [old, new]}. */
    settings: string;
    added_count: number;
    removed_count: number;
    /** Migration 0015: the batch (one apply across zones) the change set belongs to; null for most. */
    batch_id: string | null;
  };
  /** Migration 0015: templates of RRsets, owned by a user or a team (`owner`: `user:<id>` or `team:<id>`). */
  templates: { id: Generated<number>; owner: string; user_id: number; team_id: number | null; name: string; description: Generated<string>; rrsets: string; created_at: string; updated_at: string };
  /** Migration 0015: the template a zone came from, with the variables it was rendered with. */
  zone_templates: { domain_id: number; template_id: number; variables: Generated<string>; applied_at: string };
  /**
   * Migration 0020, PostgreSQL: each record's full name, kept by triggers on `records`, for the
   * pg_trgm index the search across zones reads. SQLite keeps `records_trigram` instead (FTS5 trigram
   * over full name and content, contentless, likewise kept by triggers); both are read in SQL only.
   */
  record_fqdns: { record_id: number; fqdn: string };
  /** Migration 0021: a random tag per zone, made anew by triggers at every write of its records (dns/index-snapshot.ts). */
  zone_content_tags: { domain_id: number; tag: string };
  change_set_records: {
    id: Generated<number>;
    change_set_id: number;
    op: number;
    name: string;
    record_type: string;
    ttl: number;
    content: string;
    /** Migration 0013: 1 for a disabled record (not served). */
    disabled: Generated<number>;
  };
  records: {
    id: Generated<number>;
    domain_id: number;
    name: string;
    record_type: string;
    content: string;
    ttl: number;
    created_at: string;
    updated_at: string;
    /** Migration 0013: 1 for a disabled record: kept and listed, never served, signed or transferred. */
    disabled: Generated<number>;
  };
  sessions: {
    id_hash: string;
    user_id: number;
    token_id: number;
    token_sealed: string;
    csrf_token: string;
    created_at: string;
    last_seen_at: string;
    expires_at: string;
    /** Migration 0017: when the user last proved who they are in this session (password and second factor). */
    authenticated_at: string | null;
    /** Migration 0018: how the user signed in: password, passkey or oidc. */
    sign_in_method: Generated<string>;
    /** Migration 0034: the browser's User-Agent and the client's address at sign-in (null: from before). */
    user_agent: string | null;
    address: string | null;
  };
  tsig_keys: {
    id: Generated<number>;
    user_id: number;
    name: string;
    algorithm: string;
    secret: string;
    /** JSON text; '{}' is unrestricted. */
    scope: string;
    created_at: string;
  };
  dnssec_keys: {
    id: Generated<number>;
    domain_id: number;
    flags: number;
    algorithm: number;
    key_tag: number;
    public_key: string;
    ds_digest: string;
    private_key: string;
    created_at: string;
    /** Migration 0028: role, RFC 7583 state and since when, and what the DNS server does with the key. */
    role: Generated<string>;
    state: Generated<string>;
    state_at: string | null;
    published: Generated<number>;
    signing: Generated<number>;
    in_cds: Generated<number>;
  };
  /** Migration 0028: the parent's DS set as the driving node last saw it, and its lease. */
  dnssec_watch: {
    domain_id: number;
    checked_at: string | null;
    parent_ds: string | null;
    seen_at: string | null;
    seen_ttl: number | null;
    error: string | null;
    next_at: string | null;
    lease_holder: string | null;
    lease_until: string | null;
  };
  /** Migration 0030: webhooks (the secret sealed, bound to the id) and their deliveries, each leased by one node while it sends. */
  webhooks: {
    id: Generated<number>;
    user_id: number;
    team_id: number | null;
    url: string;
    /** JSON list of event names; `zones` a JSON list of zone names, null for every zone. */
    events: string;
    zones: string | null;
    description: Generated<string>;
    secret: string;
    active: Generated<number>;
    created_at: string;
  };
  webhook_deliveries: {
    id: Generated<number>;
    webhook_id: number;
    event: string;
    event_id: string;
    zone: string | null;
    body: string;
    status: string;
    /** JSON list of {at, status_code, error, ms}. */
    attempts: Generated<string>;
    next_attempt_at: string | null;
    lease_holder: string | null;
    lease_until: string | null;
    created_at: string;
  };
  /** Migration 0029: each node's latest view of each pool member, the members' judged states, and their changes. */
  pool_reports: { domain_id: number; pool: string; address: string; node: string; up: number | null; ok: number; detail: string; checked_at: string };
  pool_states: { domain_id: number; pool: string; address: string; state: string; since: string };
  pool_transitions: { id: Generated<number>; domain_id: number; pool: string; address: string; from_state: string; to_state: string; at: string; node: string; votes: string };
  /** Migration 0011: what PowerDNS clients set on a zone and read back (account, soa_edit_api, catalog). */
  zone_attributes: { domain_id: number; account: string; soa_edit_api: string; catalog: string };
  /** Migration 0012: PowerDNS RRset comments. */
  rrset_comments: { id: Generated<number>; domain_id: number; name: string; record_type: string; content: string; account: string; modified_at: number };
  /** Migration 0019: deleted zones, kept HISTORY_DAYS days with everything they held (`snapshot`, JSON). */
  deleted_zones: {
    id: Generated<number>;
    name: string;
    user_id: number;
    team_id: number | null;
    domain_id: number;
    deleted_at: string;
    deleted_by: string;
    expires_at: string;
    record_count: number;
    dnssec: number;
    snapshot: string;
  };
  /** Migration 0008: one row (id 1), the catalog zone's serial. */
  catalog: { id: number; serial: number };
  sign_in_failures: { key: string; failures: number; last_at: number };
  /** PostgreSQL only (migration 0008). */
  rate_buckets: { key: string; tokens: number; at: number; full_at: number; allowed: boolean };
}
