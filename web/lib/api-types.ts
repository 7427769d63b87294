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
export type { Readiness, ReadinessItem } from '../../server/services/readiness';
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

/** DNSSEC: a zone's policy, and its keys with the rollover in progress (`GET /domains/:name/dnssec`). */
export type DnssecPolicy = Domain['dnssec_policy'];
export type DnssecView = z.output<typeof import('../../server/api/zones/dnssec').DnssecViewSchema>;
export type DnssecKey = DnssecView['keys'][number];
export type Rollover = NonNullable<DnssecView['rollover']>;

/* Health-checked pools (`/domains/:name/pools`): the view comes from the API's schema. */
export type Pool = z.output<typeof import('../../server/api/zones/pools').PoolSchema>;
export type PoolType = Pool['type'];
export type PoolPolicy = Pool['policy'];
export type PoolFallback = Pool['fallback'];
export type PoolCheck = Pool['check'];
export type CheckKind = PoolCheck['kind'];
export type PoolMember = Pool['members'][number];
export type MemberState = PoolMember['state'];
export type PoolNodeResult = PoolMember['nodes'][number];
export type PoolTransition = Pool['transitions'][number];

/**
 * What `POST …/pools` takes (server/api/zones/pools.ts keeps its input schema to itself, so this
 * follows it by hand); `PUT` takes the same without name and type, omitted fields keeping their value.
 */
export interface PoolCreate {
  name: string;
  type: PoolType;
  ttl: number;
  policy: PoolPolicy;
  fallback: PoolFallback;
  members: Array<{ address: string; priority: number; weight: number }>;
  check: PoolCheck;
}
export type PoolUpdate = Partial<Omit<PoolCreate, 'name' | 'type'>>;

/* Webhooks (`/webhooks`): the API's own schemas (server/api/account/webhook-schemas.ts). */
type WebhookSchemas = typeof import('../../server/api/account/webhook-schemas');
export type Webhook = z.output<WebhookSchemas['WebhookSchema']>;
/** `POST /webhooks` answers the secret once, here only. */
export type WebhookCreated = z.output<WebhookSchemas['WebhookCreatedSchema']>;
export type WebhookCreate = z.input<WebhookSchemas['WebhookCreateSchema']>;
export type WebhookUpdate = z.input<WebhookSchemas['WebhookUpdateSchema']>;
export type WebhookDelivery = z.output<WebhookSchemas['DeliverySchema']>;
export type WebhookAttempt = WebhookDelivery['attempts'][number];
export type WebhookEvent = Webhook['events'][number];
