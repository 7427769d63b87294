/** A batch across zones as a list per zone: the lines it removes and adds (a preview, or what was applied). */
import type { BatchResult } from '../../lib/api-types';
import '../../ui/change-diff.css';
import './search.css';

export function BatchPreview({ result, label }: { result: BatchResult; label: string }) {
  const changed = result.zones.filter((z) => z.change.added.length + z.change.removed.length > 0);
  return (
    <section aria-label={label} className="batch-preview">
      <p>
        {changed.length === 0 ? 'Nothing would change.' : `${changed.length} ${changed.length === 1 ? 'zone' : 'zones'}${result.batch ? ' changed' : ' would change'}`}
        {result.batch ? ` (batch ${result.batch})` : ''}
      </p>
      <ul className="plain-list">
        {changed.map((z) => (
          <li key={z.zone}>
            <strong>{z.zone}</strong>
            {z.rrsets.length > 0 ? <span className="muted"> — {z.rrsets.map((r) => `${r.action} ${r.name} ${r.record_type}`).join(', ')}</span> : null}
            <pre className="diff" role="region" aria-label={`Records changed in ${z.zone}`} tabIndex={0}>
              {[...z.change.removed.map((r) => `- ${r.name} ${r.ttl} ${r.record_type} ${r.content}`), ...z.change.added.map((r) => `+ ${r.name} ${r.ttl} ${r.record_type} ${r.content}`)].join('\n')}
            </pre>
          </li>
        ))}
      </ul>
    </section>
  );
}
