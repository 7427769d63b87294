/** Webhooks: create one (its signing secret shown once), see each with its events and zones, delete. A webhook's page has its delivery log. */
import { useState } from 'react';
import { DeleteWebhookDialog } from '../../features/webhooks/delete-webhook-dialog';
import { useWebhooks } from '../../features/webhooks/list-webhooks';
import { NewWebhookSecret } from '../../features/webhooks/new-webhook-secret';
import { WebhookForm } from '../../features/webhooks/webhook-form';
import { WebhooksTable } from '../../features/webhooks/webhooks-table';
import type { Webhook, WebhookCreated } from '../../lib/api-types';
import { usePageTitle } from '../../lib/page-title';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import '../../features/webhooks/webhooks.css';

export function Component() {
  usePageTitle('Webhooks');
  const q = useWebhooks();
  // The creation's answer, secret included, lives here only until "Done".
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Webhooks</h1>
          <p className="muted">
            zonedeck tells another service when something happens to your zones: a change, a pool member going down or up, new DS records, a failing secondary, a parent&apos;s delegation changing.
            Failed deliveries are retried for 24 hours.
          </p>
        </div>
      </header>

      <section className="card" aria-labelledby="new-webhook-form-title">
        {created ? (
          <NewWebhookSecret webhook={created} onDone={() => setCreated(null)} />
        ) : (
          <>
            <h2 id="new-webhook-form-title">New webhook</h2>
            <WebhookForm onCreated={setCreated} />
          </>
        )}
      </section>

      <section className="card" aria-label="Your webhooks">
        {q.isPending ? (
          <LoadingState label="Loading webhooks…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load your webhooks" />
        ) : q.data.length === 0 ? (
          <EmptyState title="No webhooks yet">Create one above to be told about changes as they happen.</EmptyState>
        ) : (
          <WebhooksTable webhooks={q.data} onDelete={setDeleting} />
        )}
      </section>
      <DeleteWebhookDialog webhook={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}
