/**
 * Single sign-on identities linked to your account (Account page): which provider, the address
 * it gave, and when each was last used. Shown when the server offers single sign-on.
 */
import { useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import { fullTime, timeAgo } from '../../lib/format';
import { bff } from '../../lib/paths';
import { ErrorState, LoadingState } from '../../ui/states';
import { TableWrap } from '../../ui/table-wrap';
import { useSignInMethods } from '../../lib/sign-in-methods';
import { accountKeys } from './keys';

interface Identity {
  issuer: string;
  email: string;
  created_at: string;
  last_used_at: string | null;
}

export function IdentitiesCard() {
  const methods = useSignInMethods();
  const oidc = methods.data?.oidc ?? null;
  const list = useQuery({ queryKey: accountKeys.identities, queryFn: ({ signal }) => request<Identity[]>('GET', bff.identities, { signal }), enabled: oidc !== null });
  if (!oidc) return null;
  return (
    <section className="card" aria-labelledby="identities-title">
      <h2 id="identities-title">Single sign-on</h2>
      <p className="muted">The identities of {oidc.name} that sign you in to this account. One is linked at your first sign-in with it.</p>
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
              </tr>
            </thead>
            <tbody>
              {list.data.map((i) => (
                <tr key={`${i.issuer} ${i.created_at}`}>
                  <td className="strong">{i.issuer}</td>
                  <td>{i.email || <span className="muted">none given</span>}</td>
                  <td>
                    <time dateTime={i.created_at} title={fullTime(i.created_at)}>
                      {timeAgo(i.created_at)}
                    </time>
                  </td>
                  <td>{i.last_used_at ? <time dateTime={i.last_used_at}>{timeAgo(i.last_used_at)}</time> : <span className="muted">never</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
