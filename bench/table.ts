/** One benchmark table: each figure beside its reference, measured in the same run. */
export interface Row {
  name: string;
  value: string;
  reference: string;
  ratio: string;
}

export function ratio(value: number, reference: number): string {
  return reference > 0 ? `${Math.round((value / reference) * 100)}%` : '—';
}

export function printTable(rows: Row[]): string {
  const head: Row = { name: 'benchmark', value: 'zonedeck', reference: 'reference', ratio: 'ratio' };
  const all = [head, ...rows];
  const w = (k: keyof Row) => Math.max(...all.map((r) => r[k].length));
  const line = (r: Row) => `| ${r.name.padEnd(w('name'))} | ${r.value.padStart(w('value'))} | ${r.reference.padStart(w('reference'))} | ${r.ratio.padStart(w('ratio'))} |`;
  const sep = `|${'-'.repeat(w('name') + 2)}|${'-'.repeat(w('value') + 1)}:|${'-'.repeat(w('reference') + 1)}:|${'-'.repeat(w('ratio') + 1)}:|`;
  const out = [line(head), sep, ...rows.map(line)].join('\n');
  process.stdout.write(`${out}\n`);
  return out;
}
