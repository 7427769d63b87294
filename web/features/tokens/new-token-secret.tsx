/**
 * The secret of a token just created, shown once: the API keeps only its hash, so after
 * "Done" nobody can show it again. Read-only input so it can be selected by hand as well.
 */
import type { ApiTokenCreated } from '../../lib/api-types';
import { fullTime } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { SecretField } from '../../ui/secret-field';
import '../../ui/new-secret.css';

export function NewTokenSecret({ token, onDone }: { token: ApiTokenCreated; onDone: () => void }) {
  return (
    <section className="new-token" aria-labelledby="new-token-title">
      <h2 id="new-token-title">Token “{token.label}” created</h2>
      <Alert tone="warning" title="Copy it now: you will not see it again.">
        zonedeck keeps only a hash of this token. If you lose it, revoke it and create another.
        {token.expires_at ? ` It stops working on ${fullTime(token.expires_at)}.` : ' It does not expire.'}
      </Alert>
      <SecretField
        id="new-token-secret"
        label="Your new API token"
        value={token.token}
        copyLabel="Copy token"
        hint={
          <>
            Send it as <code>Authorization: Bearer …</code> or <code>?apikey=…</code> to <code>/api/v1</code>.
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
