/** One benchmark table: each figure beside its reference, measured in the same run. */
export interface Row {
  name: string;
  value: string;
  reference: string;
  ratio: string;
  /** The same figure before the change that aimed at it (bench/baseline.ts), when there was one. */
  before?: string;
}

export function ratio(value: number, reference: number): string {
  return reference > 0 ? `${Math.round((value / reference) * 100)}%` : '—';
}

/** A rate of DNS answers as the tables show it. */
export const fmtQps = (q: number): string => `${Math.round(q).toLocaleString('en-US')} q/s`;

export function printTable(rows: Row[]): string {
  const withBefore = rows.some((r) => r.before !== undefined);
  const head: Row = { name: 'benchmark', value: 'zonedeck', reference: 'reference', ratio: 'ratio', before: 'before' };
  const all = [head, ...rows];
  const w = (k: keyof Row) => Math.max(...all.map((r) => (r[k] ?? '—').length));
  const cells = (r: Row) => [
    r.name.padEnd(w('name')),
    r.value.padStart(w('value')),
    r.reference.padStart(w('reference')),
    r.ratio.padStart(w('ratio')),
    ...(withBefore ? [(r.before ?? '—').padStart(w('before'))] : []),
  ];
  const line = (r: Row) => `| ${cells(r).join(' | ')} |`;
  const keys: (keyof Row)[] = ['value', 'reference', 'ratio', ...(withBefore ? (['before'] as const) : [])];
  const sep = `|${'-'.repeat(w('name') + 2)}|${keys.map((k) => `${'-'.repeat(w(k) + 1)}:`).join('|')}|`;
  const out = [line(head), sep, ...rows.map(line)].join('\n');
  process.stdout.write(`${out}\n`);
  return out;
}
