/**
 * Two-factor sign-in on the Account page: set it up (a QR code and the secret for the
 * authenticator app, confirmed by one code), see the recovery codes once, renew them, or turn it
 * off. Each needs a recent sign-in (a browser left open must not turn it on and lock its owner
 * out): the password is asked again when not.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-client';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { CopyButton } from '../../ui/copy-button';
import { TextField } from '../../ui/field';
import { ErrorState, LoadingState } from '../../ui/states';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';
import { useConfirmTotp, useNewRecoveryCodes, useRemoveTotp, useSecondFactors, useStartTotp } from './two-factor';
import './account.css';

/** The otpauth:// URI as a QR code image (the library loads with this card, not with the app). */
function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then((q) => q.toDataURL(uri, { margin: 1, width: 192 })).then((url) => live && setSrc(url));
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? <img className="qr-code" src={src} width={192} height={192} alt="QR code to scan with your authenticator app" /> : <div className="qr-code" aria-hidden="true" />;
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div role="region" aria-label="Recovery codes">
      <Alert tone="warning" title="Save these recovery codes now">
        Each one signs you in once if you lose your phone. They are shown only this once.
      </Alert>
      <ol className="recovery-codes" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="toolbar">
        <CopyButton text={codes.join('\n')} label="Copy the codes" />
        <button type="button" className="btn btn-primary" onClick={onDone}>
          I have saved them
        </button>
      </div>
    </div>
  );
}

export function TwoFactorCard() {
  const status = useSecondFactors();
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const remove = useRemoveTotp();
  const renew = useNewRecoveryCodes();
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);

  const confirmCode = () =>
    confirm.mutate(code.trim(), {
      onSuccess: (r) => {
        setCodes(r.recovery_codes);
        setCode('');
        start.reset();
      },
    });
  const onConfirm = (e: FormEvent) => {
    e.preventDefault();
    confirmCode();
  };
  const codeError = confirm.error instanceof ApiError && !needsReauthentication(confirm.error) ? (confirm.error.field('code') ?? confirm.error.message) : undefined;

  let body;
  if (codes) {
    body = <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />;
  } else if (status.isPending) {
    body = <LoadingState label="Loading…" />;
  } else if (status.isError) {
    body = <ErrorState error={status.error} retry={() => void status.refetch()} title="Could not load your second factors" />;
  } else if (start.data) {
    body = (
      <div className="enrol">
        <QrCode uri={start.data.otpauth_uri} />
        <div>
          <p>Scan the code with an authenticator app (1Password, Aegis, Google Authenticator…), or type the secret into it:</p>
          <p>
            <code className="secret" data-testid="totp-secret">
              {start.data.secret}
            </code>{' '}
            <CopyButton text={start.data.secret} label="Copy the secret" />
          </p>
          <form className="inline-form" onSubmit={onConfirm} noValidate aria-label="Confirm two-factor sign-in">
            <TextField label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} error={codeError} />
            <button type="submit" className="btn btn-primary" disabled={confirm.isPending || code.trim() === ''}>
              {confirm.isPending ? 'Checking…' : 'Turn on'}
            </button>
          </form>
          <ReauthenticateDialog error={confirm.error} onConfirmed={confirmCode} onCancel={() => confirm.reset()} />
        </div>
      </div>
    );
  } else if (status.data.totp === 'on') {
    body = (
      <>
        <p>
          <Badge tone="success">On</Badge> Signing in asks for a code from your authenticator app. {status.data.recovery_codes_left} of 10 recovery codes left.
        </p>
        {renew.error && !needsReauthentication(renew.error) ? <Alert title={renew.error.message} /> : null}
        {remove.error && !needsReauthentication(remove.error) ? <Alert title={remove.error.message} /> : null}
        <div className="toolbar">
          <button type="button" className="btn" disabled={renew.isPending} onClick={() => renew.mutate(undefined, { onSuccess: (r) => setCodes(r.recovery_codes) })}>
            New recovery codes
          </button>
          <button type="button" className="btn btn-danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
            Turn off two-factor sign-in
          </button>
        </div>
        <ReauthenticateDialog error={renew.error} onConfirmed={() => renew.mutate(undefined, { onSuccess: (r) => setCodes(r.recovery_codes) })} onCancel={() => renew.reset()} />
        <ReauthenticateDialog error={remove.error} onConfirmed={() => remove.mutate()} onCancel={() => remove.reset()} />
      </>
    );
  } else {
    body = (
      <>
        <p>
          <Badge>Off</Badge> Your password alone signs you in. With two-factor sign-in, a stolen password is not enough.
        </p>
        {start.error && !needsReauthentication(start.error) ? <Alert title={start.error.message} /> : null}
        <button type="button" className="btn btn-primary" disabled={start.isPending} onClick={() => start.mutate()}>
          Set up two-factor sign-in
        </button>
        <ReauthenticateDialog error={start.error} onConfirmed={() => start.mutate()} onCancel={() => start.reset()} />
      </>
    );
  }

  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      {body}
    </section>
  );
}
