/**
 * What an administrator does to a user from the list: disable or enable, grant or revoke admin,
 * reset the second factors. Each needs a sign-in within 10 minutes: a refusal for an old sign-in
 * is kept in `askAgain` (the password dialog shows it), with the act to send again once confirmed.
 */
import { useState } from 'react';
import type { User } from '../../lib/api-types';
import { useToast } from '../../ui/toast';
import { needsReauthentication } from '../../ui/reauthenticate';
import { useResetSecondFactors, useUpdateUser, type UserPatch } from './update-user';

function patchWords(u: User, patch: UserPatch): string {
  if ('disabled' in patch) return patch.disabled ? `Disabled ${u.username}: they can no longer sign in or use their tokens` : `Enabled ${u.username}`;
  return patch.is_admin ? `${u.username} is now an administrator` : `${u.username} is no longer an administrator`;
}

export interface AskAgain {
  error: unknown;
  retry: () => void;
}

export function useUserActions() {
  const update = useUpdateUser();
  const resetFactors = useResetSecondFactors();
  const toast = useToast();
  const [askAgain, setAskAgain] = useState<AskAgain | null>(null);

  const change = (u: User, patch: UserPatch) =>
    update.mutate(
      { username: u.username, patch },
      {
        onSuccess: () => toast('success', patchWords(u, patch)),
        onError: (e) => (needsReauthentication(e) ? setAskAgain({ error: e, retry: () => change(u, patch) }) : toast('error', `Could not change ${u.username}: ${e.message}`)),
      },
    );
  const resetFactorsOf = (u: User) =>
    resetFactors.mutate(u.username, {
      onSuccess: () => toast('success', `${u.username} signs in with their password alone now`),
      onError: (e) => (needsReauthentication(e) ? setAskAgain({ error: e, retry: () => resetFactorsOf(u) }) : toast('error', `Could not reset ${u.username}: ${e.message}`)),
    });

  return {
    change,
    resetFactorsOf,
    /** The user a change is on its way for, whose buttons wait. */
    busy: update.isPending ? update.variables.username : null,
    askAgain,
    /** The password was given again: the refused act goes again. */
    retry: () => {
      askAgain?.retry();
      setAskAgain(null);
    },
    cancelAskAgain: () => setAskAgain(null),
  };
}
