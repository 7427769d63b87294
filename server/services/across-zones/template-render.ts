/**
 * A template as a zone gets it: its variables checked, its placeholders filled, and the
 * change-set builder that puts the rendered RRsets into a zone (merge: the template's RRsets
 * replace the zone's at their names and types; replace: the zone's other RRsets go too, but the
 * apex NS set, which is the service's).
 */
import { APEX, normalizeRecordName } from '../../core/domain-name';
import { Invalid } from '../../core/errors';
import type { Slicer } from '../../core/pause';
import { recordType } from '../../core/record-types';
import { fill, MAX_VARIABLES, variableRefusal } from '../../core/template-render';
import type { TemplateRow } from '../../store/types/across-zones';
import type { Edit } from '../changes/change-sets';
import { FieldCheck } from '../changes/rule-fields';

export type ApplyMode = 'merge' | 'replace';

export type Variables = Record<string, string>;

/** The variables checked: bounded names and values (400 naming `variables.<name>`). */
export function parseVariables(raw: Record<string, unknown> | undefined): Variables {
  const out: Variables = {};
  const entries = Object.entries(raw ?? {});
  if (entries.length > MAX_VARIABLES) throw Invalid.field('variables', `must hold at most ${MAX_VARIABLES} variables`);
  const check = new FieldCheck();
  for (const [k, v] of entries) {
    const why = variableRefusal(k, v);
    if (why) check.fail(`variables.${k.slice(0, 40)}`, why);
    else out[k] = v as string;
  }
  check.done();
  return out;
}

/** How many records a template holds: what an apply builds in each zone, counted before anything is built. */
export const recordCount = (template: { rrsets: ReadonlyArray<{ records: readonly unknown[] }> }): number => template.rrsets.reduce((n, s) => n + s.records.length, 0);

/** One RRset of a template, rendered for a zone. */
export interface RenderedRRset {
  name: string;
  type: string;
  ttl: number;
  records: string[];
}

/**
 * A template's RRsets as a zone gets them: placeholders filled, names and contents canonical;
 * Invalid naming `rrsets.<i>…` or `variables`. `slice` lets the event loop turn between RRsets.
 */
export async function render(template: Pick<TemplateRow, 'rrsets'>, zone: string, variables: Variables, slice: Slicer): Promise<RenderedRRset[]> {
  const check = new FieldCheck();
  const out = [];
  for (const [i, rs] of template.rrsets.entries()) {
    await slice();
    const at = `rrsets.${i}`;
    const type = check.run(`${at}.record_type`, () => recordType(rs.record_type));
    const name = check.run(`${at}.name`, () => normalizeRecordName(fill(rs.name, zone, variables), zone));
    // A variable may bring a name to the apex, whose NS set is the service's.
    if (name === APEX && type?.type === 'NS') check.fail(`${at}.name`, 'is the apex here, whose NS set is managed by zonedeck');
    const records = rs.records.map((c, j) => (type ? check.run(`${at}.records.${j}`, () => type.normalize(fill(c, zone, variables))) : undefined));
    out.push({ name: name!, type: type?.type ?? '', ttl: rs.ttl, records: [...new Set(records as string[])] });
  }
  check.done();
  return out;
}

/** A change-set builder that puts the template's RRsets into the zone. */
export function templateBuild(template: Pick<TemplateRow, 'rrsets'>, variables: Variables, mode: ApplyMode) {
  return async (edit: Edit): Promise<void> => {
    const { draft, zone, slice } = edit;
    const sets = await render(template, zone.name, variables, slice);
    const given = new Set(sets.map((s) => `${s.name} ${s.type}`));
    if (mode === 'replace') {
      await draft.loadAll();
      for (const name of draft.names()) {
        await slice();
        for (const type of draft.types(name)) if ((name !== APEX || type !== 'NS') && !given.has(`${name} ${type}`)) draft.put(name, type, [], 0);
      }
    } else await draft.load(new Set(sets.map((s) => s.name)));
    for (const s of sets) {
      await slice();
      draft.put(
        s.name,
        s.type,
        s.records.map((content) => ({ content, ttl: s.ttl })),
        s.ttl,
      );
    }
    // One lookup per broken rule, not a scan of the template: a template may break thousands.
    const last = new Map(sets.map((s, i) => [`${s.name} ${s.type}`, i]));
    edit.blame = (name, type) => {
      const at = last.get(`${name} ${type}`);
      return at === undefined ? 'rrsets' : `rrsets.${at}`;
    };
  };
}
