/** The user's webhooks: where each sends, which events of which zones, whether it is active. The URL opens its page and delivery log. */
import { Link } from 'react-router-dom';
import type { Webhook } from '../../lib/api-types';
import { routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import { TableWrap } from '../../ui/table-wrap';
import { When } from '../../ui/when';

export function scopeText(w: Pick<Webhook, 'zones' | 'team'>): string {
  const listed = w.zones ?? [];
  if (w.team) return `${listed.length > 0 ? listed.join(', ') : 'every zone'} of team ${w.team}`;
  return listed.length > 0 ? listed.join(', ') : 'every zone you can read';
}

export function WebhooksTable({ webhooks, onDelete }: { webhooks: Webhook[]; onDelete: (w: Webhook) => void }) {
  return (
    <TableWrap label="Webhooks">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Zones</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {webhooks.map((w) => (
            <tr key={w.id} data-testid="webhook-row">
              <td className="webhook-url-cell">
                <Link to={routes.webhook(w.id)} className="mono webhook-url">
                  {w.url}
                </Link>
                {w.active ? null : (
                  <>
                    {' '}
                    <Badge>Inactive</Badge>
                  </>
                )}
                {w.description ? <div className="muted small">{w.description}</div> : null}
              </td>
              <td>
                <span className="badges">
                  {w.events.map((e) => (
                    <Badge key={e}>{e}</Badge>
                  ))}
                </span>
              </td>
              <td className="small">{scopeText(w)}</td>
              <td>
                <When iso={w.created_at} />
              </td>
              <td className="actions actions-row">
                <Link to={routes.webhook(w.id)} className="btn btn-small" aria-label={`Deliveries of ${w.url}`}>
                  Deliveries
                </Link>
                <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => onDelete(w)} aria-label={`Delete the webhook to ${w.url}`}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
