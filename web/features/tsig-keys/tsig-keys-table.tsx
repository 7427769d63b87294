/** The user's TSIG keys: name, algorithm, what each may do, when it was made. */
import type { TsigKey } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { describeScope } from '../../lib/scope-text';

export function TsigKeysTable({ keys, onRevoke }: { keys: TsigKey[]; onRevoke: (key: TsigKey) => void }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Algorithm</th>
            <th scope="col">Scope</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => {
            const scope = describeScope(k.scope);
            return (
              <tr key={k.name}>
                <td className="mono strong">{k.name}</td>
                <td className="mono">{k.algorithm}</td>
                <td>{scope.length === 0 ? <span className="muted">Unrestricted</span> : scope.map((line) => <div key={line}>{line}</div>)}</td>
                <td>
                  <time dateTime={k.created_at} title={fullTime(k.created_at)}>
                    {timeAgo(k.created_at)}
                  </time>
                </td>
                <td className="actions">
                  <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
