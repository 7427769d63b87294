/**
 * The API's shapes as the SPA sees them, derived from the server's own request and response
 * schemas (never copied by hand), plus the BFF's own answers.
 */
import type { z } from 'zod';
import type {
  ChangeSetSchema,
  DomainCreateSchema,
  DomainSchema,
  DomainUpdateSchema,
  ErrorSchema,
  IpSchema,
  RecordCreateSchema,
  RecordSchema,
  RecordUpdateSchema,
  RevertSchema,
  RRsetChangeSchema,
  RRsetPatchSchema,
  TokenCreatedSchema,
  TokenCreateSchema,
  TokenSchema,
  ZoneImportResultSchema,
  TsigKeyCreatedSchema,
  TsigKeyCreateSchema,
  TsigKeySchema,
} from '../../server/api/zones/schemas';
import type {
  AccountSchema,
  AuditEventSchema,
  NewPasswordSchema,
  PasswordChangeSchema,
  SessionSchema,
  UserCreatedSchema,
  UserCreateSchema,
  UserSchema,
  UserUpdateSchema,
} from '../../server/api/account/account-schemas';
import type { Role } from '../../server/core/roles';

export type Ip = z.output<typeof IpSchema>;
export type Domain = z.output<typeof DomainSchema>;
export type DomainCreate = z.input<typeof DomainCreateSchema>;
export type DomainUpdate = z.input<typeof DomainUpdateSchema>;
export type DnsRecord = z.output<typeof RecordSchema>;
export type RecordCreate = z.input<typeof RecordCreateSchema>;
export type RecordUpdate = z.input<typeof RecordUpdateSchema>;
export type ApiToken = z.output<typeof TokenSchema>;
export type ApiTokenCreated = z.output<typeof TokenCreatedSchema>;
export type ApiTokenCreate = z.input<typeof TokenCreateSchema>;
export type TsigKey = z.output<typeof TsigKeySchema>;
export type TsigKeyCreated = z.output<typeof TsigKeyCreatedSchema>;
export type TsigKeyCreate = z.input<typeof TsigKeyCreateSchema>;
export type ErrorBody = z.output<typeof ErrorSchema>;
export type ChangeSet = z.output<typeof ChangeSetSchema>;
export type ChangeRecord = ChangeSet['added'][number];
export type ChangeSource = ChangeSet['source'];
export type RRsetChange = z.input<typeof RRsetChangeSchema>;
export type RRsetPatch = z.input<typeof RRsetPatchSchema>;
export type Revert = z.input<typeof RevertSchema>;
export type ZoneImportResult = z.output<typeof ZoneImportResultSchema>;
export type IgnoredRecord = ZoneImportResult['ignored'][number];

export type { SessionInfo } from '../../server/bff/index';
export type { IpUsage, IpUsageRecord } from '../../server/bff/ip-usage';

/* Accounts, users and the audit log. */
export type Account = z.output<typeof AccountSchema>;
/** One of the user's dashboard sessions; `current` is the one this request came with. */
export type AccountSession = z.output<typeof SessionSchema>;
export type PasswordChange = z.input<typeof PasswordChangeSchema>;
export type User = z.output<typeof UserSchema>;
/** `POST /users` answers the new user with a one-time password, shown once. */
export type UserCreated = z.output<typeof UserCreatedSchema>;
export type UserCreate = z.input<typeof UserCreateSchema>;
export type UserUpdate = z.input<typeof UserUpdateSchema>;
export type NewPassword = z.output<typeof NewPasswordSchema>;
export type AuditEvent = z.output<typeof AuditEventSchema>;

export type TeamRole = Role;

/*
 * Teams: server/api/account/teams.ts keeps its Team and Member schemas to itself, so these follow them
 * by hand until it exports them.
 */
/** A team as its list shows it; `role` is null where the user (an administrator) is no member. */
export interface Team {
  name: string;
  role: Role | null;
  members: number;
  zones: number;
  created_at: string;
}

export interface Member {
  username: string;
  role: Role;
  /** When the member got this role. */
  created_at: string;
}

/** A pending invitation as the team's owners see it, and as the invited user sees theirs. */
export type TeamInvitation = z.output<typeof import('../../server/api/account/teams').TeamInvitationSchema>;
export type Invitation = z.output<typeof import('../../server/api/account/invitations').InvitationSchema>;

/** A zone's query statistics: counts per step, and its most asked names. */
export type QuerySeries = z.output<typeof import('../../server/api/zones/query-stats').QuerySeriesSchema>;
export type TopNames = z.output<typeof import('../../server/api/zones/query-stats').TopNamesSchema>;

/** Templates and work across zones. */
export type Template = z.output<typeof import('../../server/api/across-zones/template-schemas').TemplateSchema>;
export type TemplateZone = z.output<typeof import('../../server/api/across-zones/template-schemas').TemplateZoneSchema>;
export type BatchResult = z.output<typeof import('../../server/api/across-zones/template-schemas').BatchResultSchema>;
export type FoundRecord = z.output<typeof import('../../server/api/across-zones/template-schemas').FoundRecordSchema>;
export type BulkChange = z.input<typeof import('../../server/api/across-zones/template-schemas').BulkChangeSchema>;

/*
 * DNSSEC keys and rollovers (`GET /domains/:name/dnssec`). Written out by hand until the server's
 * schema of this view lands; then derived from it like the rest.
 */
export interface DnssecPolicy {
  algorithm: 'ecdsap256sha256' | 'ecdsap384sha384' | 'ed25519';
  keys: 'csk' | 'ksk-zsk';
  zsk_lifetime_days: number;
  ksk_lifetime_days: number | null;
  denial: 'compact' | 'nsec3';
}
export interface DnssecView {
  dnssec_enabled: boolean;
  policy: DnssecPolicy;
  keys: {
    id: number;
    key_tag: number;
    role: 'csk' | 'ksk' | 'zsk';
    algorithm: number;
    algorithm_name: string;
    flags: number;
    state: 'generated' | 'published' | 'ready' | 'active' | 'retired' | 'removed';
    published: boolean;
    signing: boolean;
    in_cds: boolean;
    created_at: string;
    state_since: string | null;
    ds: string | null;
  }[];
  rollover: {
    kind: 'zsk' | 'ksk' | 'csk' | 'algorithm';
    step: string;
    description: string;
    started_at: string;
    step_since: string;
    next_step_at: string | null;
    waiting_for: 'time' | 'parent';
    parent_ds: string[] | null;
    parent_checked_at: string | null;
  } | null;
  next_rollover_at: string | null;
  warnings: string[];
}
export type DnssecKey = DnssecView['keys'][number];
export type Rollover = NonNullable<DnssecView['rollover']>;
