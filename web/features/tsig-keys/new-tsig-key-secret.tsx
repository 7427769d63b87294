/**
 * The secret of a key just created, shown once, as the `-y` argument that nsupdate, dig,
 * knsupdate and kdig take, with the commands to try it.
 */
import type { TsigKeyCreated } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { SecretField } from '../../ui/secret-field';
import '../../ui/new-secret.css';

export function NewTsigKeySecret({ tsigKey, onDone }: { tsigKey: TsigKeyCreated; onDone: () => void }) {
  return (
    <section className="new-token" aria-labelledby="new-tsig-key-title">
      <h2 id="new-tsig-key-title">TSIG key “{tsigKey.name}” created</h2>
      <Alert tone="warning" title="Copy it now: you will not see the secret again.">
        If you lose it, revoke the key and create another.
      </Alert>
      <SecretField
        id="new-tsig-key-secret"
        label="The key, as nsupdate -y and dig -y take it"
        value={tsigKey.nsupdate}
        copyLabel="Copy key"
        hint={
          <>
            Algorithm <code>{tsigKey.algorithm}</code>, name <code>{tsigKey.name}</code>, secret (base64) <code>{tsigKey.secret}</code>. Try it with{' '}
            <code>
              dig -y {tsigKey.algorithm}:{tsigKey.name}:… example.com SOA
            </code>{' '}
            against this service&apos;s DNS port.
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
