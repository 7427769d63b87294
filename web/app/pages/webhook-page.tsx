/**
 * One webhook: where it sends and what, "Send test" (a `ping` event), Edit and Delete, and its
 * delivery log with each attempt and "Redeliver". The log follows pending deliveries by itself.
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useDeliveries, usePing } from '../../features/webhooks/deliveries';
import { DeleteWebhookDialog } from '../../features/webhooks/delete-webhook-dialog';
import { DeliveryLog } from '../../features/webhooks/delivery-log';
import { useWebhook } from '../../features/webhooks/list-webhooks';
import { WebhookForm } from '../../features/webhooks/webhook-form';
import { scopeText } from '../../features/webhooks/webhooks-table';
import { ApiError } from '../../lib/api-client';
import type { Webhook } from '../../lib/api-types';
import { fullTime } from '../../lib/format';
import { usePageTitle } from '../../lib/page-title';
import { routes } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import '../../features/webhooks/webhooks.css';

function Facts({ webhook }: { webhook: Webhook }) {
  return (
    <dl className="facts">
      <div>
        <dt>Events</dt>
        <dd className="badges">
          {webhook.events.map((e) => (
            <Badge key={e}>{e}</Badge>
          ))}
        </dd>
      </div>
      <div>
        <dt>Zones</dt>
        <dd>{scopeText(webhook)}</dd>
      </div>
      <div>
        <dt>State</dt>
        <dd>{webhook.active ? 'Active' : 'Inactive: gets no deliveries'}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{fullTime(webhook.created_at)}</dd>
      </div>
    </dl>
  );
}

export function Component() {
  const id = Number(useParams().id);
  const q = useWebhook(id);
  const deliveries = useDeliveries(id);
  const ping = usePing(id);
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  usePageTitle(q.data ? q.data.url : `Webhook ${id}`, 'Webhooks');

  if (q.isPending) return <LoadingState label="Loading the webhook…" />;
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.status === 404)
      return (
        <div className="page">
          <EmptyState title="No such webhook">
            It may have been deleted. <Link to={routes.webhooks}>Back to your webhooks</Link>
          </EmptyState>
        </div>
      );
    return <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load the webhook" />;
  }
  const w = q.data;
  return (
    <div className="page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={routes.webhooks}>Webhooks</Link> <span aria-hidden="true">/</span> <span aria-current="page">Webhook {w.id}</span>
      </nav>
      <header className="page-header">
        <div>
          <h1 className="mono-title webhook-url">{w.url}</h1>
          {w.description ? <p className="muted">{w.description}</p> : null}
          <Facts webhook={w} />
        </div>
        <span className="row page-actions">
          <button type="button" className="btn btn-primary" disabled={ping.isPending} onClick={() => ping.mutate(undefined)}>
            {ping.isPending ? 'Sending…' : 'Send test'}
          </button>
          {editing ? null : (
            <button type="button" className="btn" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          <button type="button" className="btn btn-ghost-danger" onClick={() => setDeleting(w)}>
            Delete
          </button>
        </span>
      </header>
      {ping.error ? <Alert title="Could not send the test">{ping.error.message}</Alert> : null}
      {ping.isSuccess ? <Alert tone="info">A ping event is on its way; it shows in the log below.</Alert> : null}

      {editing ? (
        <section className="card" aria-labelledby="edit-webhook-title">
          <h2 id="edit-webhook-title">Edit webhook</h2>
          <WebhookForm webhook={w} onSaved={() => setEditing(false)} onCancel={() => setEditing(false)} />
        </section>
      ) : null}

      <section className="card" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries</h2>
        {deliveries.isPending ? (
          <LoadingState label="Loading the deliveries…" />
        ) : deliveries.isError ? (
          <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} title="Could not load the deliveries" />
        ) : deliveries.data.length === 0 ? (
          <EmptyState title="Nothing delivered yet">Press “Send test” to send a ping event now.</EmptyState>
        ) : (
          <DeliveryLog webhookId={w.id} deliveries={deliveries.data} />
        )}
      </section>
      <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(null)} onDeleted={() => navigate(routes.webhooks)} />
    </div>
  );
}
