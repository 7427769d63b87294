/**
 * A webhook's deliveries, newest first: the event and its zone, the state, every attempt (when, the
 * status code or the error, how long), when the next retry is due, and "Redeliver", which sends the
 * same event again as a new attempt. A table that scrolls inside its own frame on a phone.
 */
import type { WebhookDelivery } from '../../lib/api-types';
import { fullTime } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { When } from '../../ui/when';
import { TableWrap } from '../../ui/table-wrap';
import { useRedeliver } from './deliveries';
import { attemptText, STATUS_WORDS } from './webhook-words';

export function DeliveryLog({ webhookId, deliveries }: { webhookId: number; deliveries: WebhookDelivery[] }) {
  const redeliver = useRedeliver(webhookId);
  return (
    <>
      {redeliver.error ? <Alert title="Could not redeliver">{redeliver.error.message}</Alert> : null}
      <TableWrap label="Deliveries">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Zone</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} data-testid="delivery-row">
                <td>
                  <span className="mono">{d.event}</span>
                  <div className="muted small">
                    <When iso={d.created_at} />
                  </div>
                </td>
                <td className="mono">{d.zone ?? <span className="muted">—</span>}</td>
                <td>
                  <Badge tone={STATUS_WORDS[d.status].tone}>{STATUS_WORDS[d.status].label}</Badge>
                  {d.status === 'pending' && d.next_attempt_at ? (
                    <div className="muted small">
                      next try <When iso={d.next_attempt_at} />
                    </div>
                  ) : null}
                </td>
                <td>
                  {d.attempts.length === 0 ? (
                    <span className="muted small">Not sent yet</span>
                  ) : (
                    <ol className="plain-list small delivery-attempts">
                      {d.attempts.map((a) => (
                        <li key={a.at}>
                          <When iso={a.at} />: <span className={a.status_code !== null && a.status_code < 300 ? 'strong' : 'delivery-failed'}>{attemptText(a)}</span>
                        </li>
                      ))}
                    </ol>
                  )}
                </td>
                <td className="actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={redeliver.isPending}
                    onClick={() => redeliver.mutate(d.id)}
                    aria-label={`Redeliver ${d.event} of ${fullTime(d.created_at)}`}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}
