/**
 * What an import's answer means to the person importing: the server's errors by line number
 * (a 400 keys each message `line <n>`), and the change a preview describes in one sentence.
 */
import type { ChangeSet } from '../../lib/api-types';
import { formatNumber } from '../../lib/format';

export interface LineError {
  line: number;
  message: string;
}

/** The server's `fields`: messages keyed `line <n>` in line order, anything else (`dry_run`, `If-Match`) apart. */
export function lineErrors(fields: Record<string, string>): { lines: LineError[]; other: Array<[string, string]> } {
  const lines: LineError[] = [];
  const other: Array<[string, string]> = [];
  for (const [key, message] of Object.entries(fields)) {
    const m = /^line (\d+)$/.exec(key);
    if (m) lines.push({ line: Number(m[1]), message });
    else other.push([key, message]);
  }
  lines.sort((a, b) => a.line - b.line);
  return { lines, other };
}

const records = (n: number) => `${formatNumber(n)} record${n === 1 ? '' : 's'}`;

/** True when applying the change would change no record and no setting. */
export const changesNothing = (cs: Pick<ChangeSet, 'added_count' | 'removed_count' | 'settings'>) => cs.added_count + cs.removed_count === 0 && Object.keys(cs.settings).length === 0;

/** "adds 3 records, removes 1 record and changes 2 settings" */
export function importSummary(cs: Pick<ChangeSet, 'added_count' | 'removed_count' | 'settings'>): string {
  const settings = Object.keys(cs.settings).length;
  const parts = [
    cs.added_count ? `adds ${records(cs.added_count)}` : '',
    cs.removed_count ? `removes ${records(cs.removed_count)}` : '',
    settings ? `changes ${settings === 1 ? '1 setting' : `${settings} settings`}` : '',
  ].filter(Boolean);
  if (parts.length === 0) return 'changes nothing: the zone already holds what the file says';
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}
