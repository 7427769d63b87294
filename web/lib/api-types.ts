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
} from '../../server/api/schemas';

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
