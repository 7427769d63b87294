/** What a change to a team's members makes stale: the team's lists, and (a role decides what the editor offers) its zones. */
import type { QueryClient } from '@tanstack/react-query';
import { domainKeys } from '../../lib/domain-keys';
import { teamKeys } from '../../lib/team-keys';

export function refreshAfterMemberChange(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: teamKeys.all });
  void qc.invalidateQueries({ queryKey: domainKeys.all });
}
