/**
 * Single sign-on identities linked to your account (Account page): which provider, the address
 * it gave, and when each was last used. Shown when the server offers single sign-on. An identity
 * is linked only from here, by its owner signed in (a sign-in within 10 minutes, else the password
 * is asked again): the button goes through the provider and comes back to this page
 * (`/account?sso=linked`, or the reason it did not). Unlinking one stops it signing in.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { ApiError, request } from '../../lib/api-client';
import { fullTime, timeAgo } from '../../lib/format';
import { bff } from '../../lib/paths';
import { ssoErrorWords, useSignInMethods } from '../../lib/sign-in-methods';
import { Alert } from '../../ui/alert';
import { needsReauthentication, ReauthenticateDialog } from '../../ui/reauthenticate';
import { ErrorState, LoadingState } from '../../ui/states';
import { TableWrap } from '../../ui/table-wrap';
import { accountKeys } from './keys';

interface Identity {
  id: number;
  issuer: string;
  email: string;
  created_at: string;
  last_used_at: string | null;
}

/** Asks the BFF for the provider's address, and goes there; the way back lands on this page. */
async function startLink(): Promise<void> {
  const { location } = await request<{ location: string }>('POST', bff.oidcLink);
  window.location.assign(location);
}

export function IdentitiesCard() {
  const qc = useQueryClient();
  const methods = useSignInMethods();
  const oidc = methods.data?.oidc ?? null;
  const [params, setParams] = useSearchParams();
  const list = useQuery({ queryKey: accountKeys.identities, queryFn: ({ signal }) => request<Identity[]>('GET', bff.identities, { signal }), enabled: oidc !== null });
  const link = useMutation({ mutationFn: startLink });
  const unlink = useMutation({
    mutationFn: (id: number) => request<void>('DELETE', `${bff.identities}/${id}`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: accountKeys.identities }),
  });
  if (!oidc) return null;
  const outcome = params.get('sso');
  const dismiss = () =>
    setParams(
      (p) => {
        p.delete('sso');
        return p;
      },
      { replace: true },
    );
  const otherError = [link.error, unlink.error].find((e) => e && !needsReauthentication(e));

  return (
    <section className="card" aria-labelledby="identities-title">
      <h2 id="identities-title">Single sign-on</h2>
      <p className="muted">
        The identities of {oidc.name} that sign you in to this account. Link yours here to sign in with {oidc.name}.
      </p>
      {outcome === 'linked' ? (
        <Alert tone="success" title={`Linked: ${oidc.name} signs you in to this account now`}>
          <button type="button" className="btn btn-small" onClick={dismiss}>
            OK
          </button>
        </Alert>
      ) : outcome ? (
        <Alert title="The identity was not linked">
          {ssoErrorWords(outcome)}{' '}
          <button type="button" className="btn btn-small" onClick={dismiss}>
            OK
          </button>
        </Alert>
      ) : null}
      {otherError ? <Alert title={otherError instanceof ApiError ? otherError.message : 'Something went wrong. Try again.'} /> : null}
      {list.isPending ? (
        <LoadingState label="Loading your identities…" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => void list.refetch()} title="Could not load your identities" />
      ) : list.data.length === 0 ? (
        <p>No identity linked yet.</p>
      ) : (
        <TableWrap label="Linked identities">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Email</th>
                <th scope="col">Linked</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((i) => (
                <tr key={i.id}>
                  <td className="strong">{i.issuer}</td>
                  <td>{i.email || <span className="muted">none given</span>}</td>
                  <td>
                    <time dateTime={i.created_at} title={fullTime(i.created_at)}>
                      {timeAgo(i.created_at)}
                    </time>
                  </td>
                  <td>{i.last_used_at ? <time dateTime={i.last_used_at}>{timeAgo(i.last_used_at)}</time> : <span className="muted">never</span>}</td>
                  <td className="actions">
                    <button type="button" className="btn btn-small btn-ghost-danger" disabled={unlink.isPending} aria-label={`Unlink ${i.email || i.issuer}`} onClick={() => unlink.mutate(i.id)}>
                      Unlink
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <button type="button" className="btn" disabled={link.isPending} onClick={() => link.mutate()}>
        {link.isPending ? `Going to ${oidc.name}…` : `Link ${oidc.name}`}
      </button>
      <ReauthenticateDialog error={link.error} onConfirmed={() => link.mutate()} onCancel={() => link.reset()} />
      <ReauthenticateDialog error={unlink.error} onConfirmed={() => unlink.variables !== undefined && unlink.mutate(unlink.variables)} onCancel={() => unlink.reset()} />
    </section>
  );
}
