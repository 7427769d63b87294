/**
 * The secret of a webhook just created, shown once: the receiver checks each delivery's
 * `X-Zonedeck-Signature` with it, and the API never shows it again.
 */
import { useRef } from 'react';
import type { WebhookCreated } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { CopyButton } from '../../ui/copy-button';
import '../../ui/new-secret.css';

export function NewWebhookSecret({ webhook, onDone }: { webhook: WebhookCreated; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <section className="new-token" aria-labelledby="new-webhook-title">
      <h2 id="new-webhook-title">Webhook created</h2>
      <Alert tone="warning" title="Copy the secret now: you will not see it again.">
        Your receiver needs it to check that a delivery comes from zonedeck. If you lose it, set a new one by editing the webhook.
      </Alert>
      <div className="field">
        <label htmlFor="new-webhook-secret">Signing secret of {webhook.url}</label>
        <div className="secret-row">
          <input id="new-webhook-secret" ref={input} className="mono grow" readOnly value={webhook.secret} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={webhook.secret} label="Copy secret" fallbackInput={input} />
        </div>
        <p className="field-hint">
          Each delivery carries <code>X-Zonedeck-Signature: sha256=…</code>, the hex HMAC-SHA256 of the request body under this secret.
        </p>
      </div>
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={onDone}>
          Done, I have copied it
        </button>
      </div>
    </section>
  );
}
