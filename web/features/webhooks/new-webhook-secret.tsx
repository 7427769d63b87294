/**
 * The secret of a webhook just created, shown once: the receiver checks each delivery's
 * `X-Zonedeck-Signature` with it, and the API never shows it again.
 */
import type { WebhookCreated } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { SecretField } from '../../ui/secret-field';
import '../../ui/new-secret.css';

export function NewWebhookSecret({ webhook, onDone }: { webhook: WebhookCreated; onDone: () => void }) {
  return (
    <section className="new-token" aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">Webhook created</h2>
      <Alert tone="warning" title="Copy the secret now: you will not see it again.">
        Your receiver needs it to check that a delivery comes from zonedeck. If you lose it, set a new one by editing the webhook.
      </Alert>
      <SecretField
        id="new-webhook-secret"
        label={<>Signing secret of {webhook.url}</>}
        value={webhook.secret}
        copyLabel="Copy secret"
        hint={
          <>
            Each delivery carries <code>X-Zonedeck-Signature: sha256=…</code>, the hex HMAC-SHA256 of the request body under this secret.
          </>
        }
      />
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
    </section>
  );
}
