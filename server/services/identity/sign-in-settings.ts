/**
 * Which ways of signing in are open, as an administrator sets them: password
 * sign-in can be turned off for everyone once single sign-on is configured; passkeys stay open;
 * the admin CLI (`npm run cli -- settings password-sign-in on`) is the way back. Stored in the
 * database, so every node sees a change at the next sign-in.
 */
import { Invalid } from '../../core/errors';
import type { ServiceStore } from '../../store/types';
import type { Audit, AuditActor } from './audit';

const PASSWORD_KEY = 'password_sign_in';

export interface SignInMethods {
  password: boolean;
  passkey: true;
  /** The single sign-on button's label, or null when single sign-on is not configured. */
  oidc: { name: string } | null;
}

export function createSignInSettings(store: ServiceStore, audit: Audit, oidcName: string | null) {
  const passwordEnabled = async (): Promise<boolean> => (await store.settings.get(PASSWORD_KEY)) !== 'off';

  return {
    passwordEnabled,

    /** What the sign-in page offers. */
    methods: async (): Promise<SignInMethods> => ({ password: await passwordEnabled(), passkey: true, oidc: oidcName === null ? null : { name: oidcName } }),

    /**
     * Turns password sign-in on or off for everyone. Off needs single sign-on configured: else
     * nobody without a passkey could sign in to the dashboard again.
     */
    async setPassword(actor: AuditActor, enabled: boolean): Promise<boolean> {
      if (!enabled && oidcName === null) {
        throw Invalid.field(
          'password',
          'cannot be turned off while single sign-on is not configured (set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET): nobody could sign in with a password any more',
        );
      }
      if ((await passwordEnabled()) === enabled) return enabled;
      await store.settings.set(PASSWORD_KEY, enabled ? 'on' : 'off');
      await audit.record({ kind: 'sign-in-settings-changed', actor, ...(actor.userId ? { subject: { id: actor.userId, username: actor.username } } : {}), detail: { password: enabled } });
      return enabled;
    },
  };
}

export type SignInSettings = ReturnType<typeof createSignInSettings>;
