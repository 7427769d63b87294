/** How a zone differs from the template it came from, rendered with the zone's variables. */
import { Invalid, RuleError } from '../../core/errors';
import { slicer } from '../../core/pause';
import type { TemplateRow } from '../../store/types/across-zones';
import type { DomainRow, ReadRepos, RecordRow } from '../../store/types';
import { render, type Variables } from './template-render';

/** An RRset where a zone differs from its template: records, or TTL (template's, zone's). */
export type Difference = { name: string; record_type: string; expected: string[]; actual: string[]; ttl?: [number, number] };

export interface Drift {
  drifted: boolean;
  differences: Difference[];
  /** Why the template cannot be rendered for the zone (a variable missing, a name that no longer fits): drifted. */
  problem?: string;
}

/** The RRsets whose records or TTL differ (disabled records count as absent). */
export async function drift(store: ReadRepos, t: Pick<TemplateRow, 'rrsets'>, zone: DomainRow, variables: Variables): Promise<Drift> {
  const differences: Difference[] = [];
  let problem: string | undefined;
  try {
    const sets = await render(t, zone.name, variables, slicer());
    const rows = new Map<string, RecordRow[]>();
    for (const r of await store.records.atNames(zone.id, [...new Set(sets.map((s) => s.name))])) {
      if (r.disabled) continue;
      const k = `${r.name} ${r.record_type}`;
      const list = rows.get(k);
      if (list) list.push(r);
      else rows.set(k, [r]);
    }
    for (const s of sets) {
      const have = rows.get(`${s.name} ${s.type}`) ?? [];
      const actual = have.map((r) => r.content).sort();
      const expected = [...s.records].sort();
      const ttlDiffers = have.length > 0 && have[0]!.ttl !== s.ttl;
      if (ttlDiffers || actual.join('\n') !== expected.join('\n'))
        differences.push({ name: s.name, record_type: s.type, expected, actual, ...(ttlDiffers ? { ttl: [s.ttl, have[0]!.ttl] as [number, number] } : {}) });
    }
  } catch (e) {
    if (!(e instanceof Invalid || e instanceof RuleError)) throw e;
    problem = e.message;
  }
  return { drifted: differences.length > 0 || problem !== undefined, differences, ...(problem ? { problem } : {}) };
}
