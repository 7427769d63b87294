/**
 * The Users page's switch for password sign-in: on, everyone may sign in with a password; off,
 * only single sign-on and passkeys work (the admin CLI turns it on again). Turning it off asks
 * first, and is offered only when single sign-on is configured. With single sign-on, the card
 * also sets a user's email address (a first single sign-on with it is told to link, not given an account).
 */
import { useState } from 'react';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { ErrorState, LoadingState } from '../../ui/states';
import { useToast } from '../../ui/toast';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';
import { useSetPasswordSignIn, useSignInSettings } from './sign-in-settings';
import { UserEmailForm } from './user-email-form';
import '../../ui/switch.css';

export function PasswordSignInCard() {
  const settings = useSignInSettings(true);
  const set = useSetPasswordSignIn();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);

  const change = (on: boolean) =>
    set.mutate(on, {
      onSuccess: () => toast('success', on ? 'Password sign-in is on' : 'Password sign-in is off: everyone signs in with single sign-on or a passkey'),
      onError: (e) => {
        if (!needsReauthentication(e)) toast('error', `Could not change password sign-in: ${e.message}`);
      },
    });

  return (
    <section className="card" aria-labelledby="sign-in-settings-title">
      <h2 id="sign-in-settings-title">Sign-in</h2>
      {settings.isPending ? (
        <LoadingState label="Loading the sign-in settings…" />
      ) : settings.isError ? (
        <ErrorState error={settings.error} retry={() => void settings.refetch()} title="Could not load the sign-in settings" />
      ) : (
        <div className="switch-row">
          <button
            type="button"
            role="switch"
            aria-checked={settings.data.password}
            aria-labelledby="password-sign-in-label"
            aria-describedby="password-sign-in-help"
            className="switch"
            disabled={set.isPending || (settings.data.password && !settings.data.oidc)}
            onClick={() => (settings.data.password ? setConfirming(true) : change(true))}
          >
            <span className="switch-thumb" />
          </button>
          <div>
            <span id="password-sign-in-label" className="strong">
              Password sign-in {settings.data.password ? 'on' : 'off'}
            </span>
            <p id="password-sign-in-help" className="muted small">
              {settings.data.oidc
                ? `Single sign-on: ${settings.data.oidc.name} (${settings.data.oidc.issuer}). Passkeys work either way.`
                : 'Password sign-in can be turned off once single sign-on is configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET).'}
            </p>
          </div>
        </div>
      )}
      {settings.data?.oidc ? <UserEmailForm /> : null}
      <ReauthenticateDialog error={set.error} onConfirmed={() => set.variables !== undefined && change(set.variables)} onCancel={() => set.reset()} />
      <ConfirmDialog
        open={confirming}
        title="Turn password sign-in off for everyone?"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          change(false);
        }}
        confirmLabel="Turn password sign-in off"
      >
        <Alert tone="warning" title="Nobody can sign in with a password any more, you included">
          Everyone signs in with single sign-on or a passkey. Check that yours works first. If nobody can sign in, an operator turns it on again with{' '}
          <code>npm run cli -- settings password-sign-in on</code>.
        </Alert>
      </ConfirmDialog>
    </section>
  );
}
