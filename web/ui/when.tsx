/** A moment as "12 s ago", with the full date and time on hover and in the markup for machines. */
import { fullTime, preciseAgo } from '../lib/format';

export function When({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  return (
    <time dateTime={iso} title={fullTime(iso)}>
      {preciseAgo(iso)}
    </time>
  );
}
