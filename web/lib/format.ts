/** How times and durations read in the dashboard. */
const UNITS: Array<[string, number]> = [
  ['w', 604800],
  ['d', 86400],
  ['h', 3600],
  ['min', 60],
  ['s', 1],
];

/** 3600 → "1 h", 93784 → "1 d 2 h"; the two largest units, for hints next to seconds. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds === 0) return '0 s';
  const parts: string[] = [];
  let rest = Math.floor(seconds);
  for (const [unit, size] of UNITS) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)} ${unit}`);
      rest %= size;
    }
  }
  return parts.join(' ');
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "5 minutes ago", "yesterday". */
export function timeAgo(iso: string, now = Date.now()): string {
  const diff = (Date.parse(iso) - now) / 1000;
  const abs = Math.abs(diff);
  if (abs < 45) return 'just now';
  if (abs < 3600) return relative.format(Math.round(diff / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(diff / 3600), 'hour');
  if (abs < 30 * 86400) return relative.format(Math.round(diff / 86400), 'day');
  return new Date(iso).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** "just now", "12 s ago", "3 min ago", then as timeAgo: for "who changed this just now", where seconds matter. */
export function preciseAgo(iso: string, now = Date.now()): string {
  const secs = Math.round((now - Date.parse(iso)) / 1000);
  if (secs < 0) return timeAgo(iso, now);
  if (secs < 5) return 'just now';
  if (secs < 60) return `${secs} s ago`;
  if (secs < 3600) return `${Math.floor(secs / 60)} min ago`;
  return timeAgo(iso, now);
}

export function fullTime(iso: string): string {
  return new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
}

export const formatNumber = (n: number) => n.toLocaleString('en');
