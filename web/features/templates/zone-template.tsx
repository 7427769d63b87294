/**
 * The domain page's line about the zone's template: "From template <name>" linking to the
 * template's page, and whether the zone is in step with it or has drifted. Nothing when the zone
 * did not come from a template (the API answers 404).
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { Link } from 'react-router-dom';
import { ApiError, request } from '../../lib/api-client';
import { bff, routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import { templateKeys } from './keys';

export type ZoneTemplate = z.output<typeof import('../../../server/api/across-zones/template-schemas').ZoneTemplateSchema>;

/** Asked again whenever the zone's serial moves (an edit may bring it in step, or make it drift). */
export const zoneTemplateQuery = (zone: string, serial: number) => ({
  queryKey: templateKeys.ofZone(zone, serial),
  queryFn: async ({ signal }: { signal?: AbortSignal }): Promise<ZoneTemplate | null> => {
    try {
      return await request<ZoneTemplate>('GET', `${bff.domain(zone)}/template`, { signal });
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    }
  },
});

/** A fact of the domain page's header (a `<div>` of its `<dl>`), or nothing. */
export function ZoneTemplateFact({ zone, serial }: { zone: string; serial: number }) {
  const q = useQuery({ ...zoneTemplateQuery(zone, serial), placeholderData: (previous: ZoneTemplate | null | undefined) => previous });
  if (!q.data) return null;
  const t = q.data;
  const drift = t.differences.map((d) => `${d.name} ${d.record_type}`).join(', ');
  return (
    <div>
      <dt>Template</dt>
      <dd data-testid="zone-template">
        From template <Link to={routes.template(t.template.id)}>{t.template.name}</Link>{' '}
        {t.drifted ? (
          <Badge tone="warning" title={t.problem ?? (drift ? `Differs from the template at ${drift}` : undefined)}>
            Drifted
          </Badge>
        ) : (
          <Badge tone="success">In step</Badge>
        )}
      </dd>
    </div>
  );
}
