/** One page of the account audit log, newest first: the user's own events, their teams' (owners, admins), or all (administrators). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from '../../lib/api-client';
import type { AuditEvent } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import type { AuditFilter } from './audit-words';

export const AUDIT_PER_PAGE = 50;

export const auditKeys = {
  all: ['audit'] as const,
  list: (f: AuditFilter) => ['audit', 'list', f] as const,
};

export const listAudit = (f: AuditFilter, signal?: AbortSignal) =>
  requestPage<AuditEvent>(bff.audit, { kind: f.kind || undefined, username: f.username || undefined, team: f.team || undefined, page: f.page, per_page: AUDIT_PER_PAGE }, signal);

export const auditQuery = (f: AuditFilter) => queryOptions({ queryKey: auditKeys.list(f), queryFn: ({ signal }) => listAudit(f, signal), placeholderData: keepPreviousData });

export const useAudit = (f: AuditFilter) => useQuery(auditQuery(f));

/** The role changes of a team zone's team (who could reach the zone, and how), newest first: its History shows them. */
export const useTeamEvents = (domain: string, enabled: boolean) =>
  useQuery({
    queryKey: ['audit', 'team-events', domain] as const,
    queryFn: ({ signal }) => requestPage<AuditEvent>(bff.teamEvents(domain), { per_page: 20 }, signal),
    enabled,
  });
