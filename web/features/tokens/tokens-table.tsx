/**
 * The user's tokens, each with its scope. The dashboard's own session token is marked and cannot be revoked
 * here: that would sign this tab out mid-click, and "Sign out" already does it cleanly.
 */
import type { ApiToken } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { Badge } from '../../ui/badge';
import { TableWrap } from '../../ui/table-wrap';
import { describeScope } from '../../lib/scope-text';
import { expiryState } from './token-expiry';

function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={fullTime(iso)}>
      {timeAgo(iso)}
    </time>
  );
}

/** `flagSoon` is off for the session's own token: it always ends within hours, by design. */
function Expiry({ at, flagSoon }: { at: string | null; flagSoon: boolean }) {
  const state = expiryState(at);
  if (state === 'never' || !at) return <span className="muted">Never</span>;
  if (state === 'expired')
    return (
      <Badge tone="danger" title={fullTime(at)}>
        Expired
      </Badge>
    );
  return (
    <>
      <Time iso={at} />
      {state === 'soon' && flagSoon ? (
        <>
          {' '}
          <Badge tone="warning">Soon</Badge>
        </>
      ) : null}
    </>
  );
}

function Scope({ scope }: { scope: ApiToken['scope'] }) {
  const lines = describeScope(scope);
  if (lines.length === 0) return <span className="muted">Unrestricted</span>;
  return (
    <ul className="plain-list small">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

export function TokensTable({ tokens, onRevoke }: { tokens: ApiToken[]; onRevoke: (token: ApiToken) => void }) {
  return (
    <TableWrap label="API tokens">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Scope</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((t) => (
            <tr key={t.id} data-testid="token-row">
              <td>
                <span className="strong">{t.label || <span className="muted">(no label)</span>}</span>
                {t.current ? (
                  <>
                    {' '}
                    <Badge tone="info" title="The token this dashboard session uses; it ends when you sign out">
                      This session
                    </Badge>
                  </>
                ) : null}
              </td>
              <td className="token-scope">
                <Scope scope={t.scope} />
              </td>
              <td>
                <Time iso={t.created_at} />
              </td>
              <td>{t.last_used_at ? <Time iso={t.last_used_at} /> : <span className="muted">Never</span>}</td>
              <td>
                <Expiry at={t.expires_at} flagSoon={!t.current} />
              </td>
              <td className="actions">
                {t.current ? (
                  <span className="muted small">Sign out to end</span>
                ) : (
                  <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => onRevoke(t)} aria-label={`Revoke ${t.label || `token ${t.id}`}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
