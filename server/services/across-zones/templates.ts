/**
 * Templates: named sets of RRsets with `{zone}` and `{var}` placeholders, owned by
 * a user or a team (members read a team's; its owners and admins change them). A zone is created
 * from one, or one is applied to many zones as a batch (template-render.ts: merge or replace).
 * A zone remembers the template and variables it was rendered with, so drift can be shown
 * (template-drift.ts). Templates are account settings: a scoped credential may not change them.
 */
import { Conflict, Forbidden, Invalid, NotFound } from '../../core/errors';
import { roleAtLeast } from '../../core/roles';
import { allowsZone } from '../../core/scope';
import type { TemplateRow } from '../../store/types/across-zones';
import type { DomainRow, ReadRepos, ServiceRepos, ServiceStore, Window } from '../../store/types';
import type { Edit, WriteOptions } from '../changes/change-sets';
import { teamFor } from '../zones/access';
import type { Zones } from '../zones/zones';
import { askedZone, unscoped, type Asker } from './asker';
import type { Batches, BatchResult } from './batches';
import { drift, type Difference } from './template-drift';
import { parseVariables, recordCount, templateBuild, type ApplyMode } from './template-render';
import { parseRRsets, parseTemplateName, rrsetsOfZone, type RRsetsInput } from './template-rrsets';

export interface TemplateInput {
  name?: string;
  description?: string;
  team?: string;
  rrsets?: RRsetsInput;
  /** Take the RRsets of this zone (its name becomes `{zone}`). */
  from_zone?: string;
}

/** The template as the user may read it: theirs, or their team's; anyone else's is NotFound. */
async function visible(tx: ReadRepos, userId: number, id: number): Promise<TemplateRow> {
  const t = await tx.templates.byId(id);
  const ok = t && (t.team_id == null ? t.user_id === userId : await tx.teams.member(t.team_id, userId));
  if (!t || !ok) throw new NotFound(`no template with id ${id}`);
  return t;
}

/** The template for a change: a team's only for its owners and admins. */
async function changeable(tx: ReadRepos, userId: number, id: number): Promise<TemplateRow> {
  const t = await visible(tx, userId, id);
  if (t.team_id != null) {
    const role = (await tx.teams.member(t.team_id, userId))?.role;
    if (!role || !roleAtLeast(role, 'admin')) throw new Forbidden(`only an owner or admin of the team may change its templates; your role is ${role}`);
  }
  return t;
}

export interface TemplatesDeps {
  store: ServiceStore;
  zones: Zones;
  batches: Batches;
  /** MAX_RECORDS_PER_ZONE: what one template holds, and what one apply builds in all. */
  maxRecords: number;
}

export class Templates {
  constructor(private readonly deps: TemplatesDeps) {}

  visible(userId: number, id: number): Promise<TemplateRow> {
    return visible(this.deps.store, userId, id);
  }

  page(userId: number, w: Window) {
    return this.deps.store.templates.page(userId, w);
  }

  async create(asker: Asker, input: TemplateInput): Promise<TemplateRow> {
    const { store, maxRecords } = this.deps;
    unscoped(asker, 'create');
    const name = parseTemplateName(input.name);
    if ((input.rrsets === undefined) === (input.from_zone === undefined)) throw Invalid.field('rrsets', 'give either rrsets or from_zone');
    const rrsets = input.from_zone !== undefined ? await rrsetsOfZone(store, await askedZone(this.deps.zones, asker, input.from_zone, 'from_zone')) : await parseRRsets(input.rrsets!, maxRecords);
    if (recordCount({ rrsets }) > maxRecords) throw Invalid.field('from_zone', `a template holds at most ${maxRecords} records (MAX_RECORDS_PER_ZONE)`);
    return store.transaction(async (tx) => {
      const team = input.team === undefined ? null : await teamFor(tx, asker.userId, input.team, 'admin', 'create its templates');
      const teamId = team?.id ?? null;
      if (await tx.templates.byName({ user_id: asker.userId, team_id: teamId }, name)) throw new Conflict(`a template named ${name} exists already`, { name: 'is taken' });
      const at = new Date().toISOString();
      return tx.templates.insert({ user_id: asker.userId, team_id: teamId, name, description: input.description ?? '', rrsets, created_at: at, updated_at: at });
    });
  }

  async update(asker: Asker, id: number, input: Omit<TemplateInput, 'team' | 'from_zone'>): Promise<TemplateRow> {
    unscoped(asker, 'change');
    const rrsets = input.rrsets === undefined ? undefined : await parseRRsets(input.rrsets, this.deps.maxRecords);
    const name = input.name === undefined ? undefined : parseTemplateName(input.name);
    return this.deps.store.transaction(async (tx) => {
      const t = await changeable(tx, asker.userId, id);
      if (name !== undefined && name !== t.name && (await tx.templates.byName(t, name))) throw new Conflict(`a template named ${name} exists already`, { name: 'is taken' });
      return tx.templates.update(t.id, { name, description: input.description, rrsets, updated_at: new Date().toISOString() });
    });
  }

  async remove(asker: Asker, id: number): Promise<TemplateRow> {
    unscoped(asker, 'delete');
    return this.deps.store.transaction(async (tx) => {
      const t = await changeable(tx, asker.userId, id);
      await tx.templates.delete(t.id);
      return t;
    });
  }

  /** The builder a new zone's first change set runs: the template's records, and the zone remembers it. */
  async forNewZone(userId: number, id: number, raw: Record<string, unknown> | undefined): Promise<(edit: Edit) => Promise<void>> {
    const variables = parseVariables(raw);
    const t = await visible(this.deps.store, userId, id).catch((e) => {
      throw e instanceof NotFound ? Invalid.field('template', 'is not a template you may use') : e;
    });
    // A template saved under a larger MAX_RECORDS_PER_ZONE than today's: refused before anything is built.
    const count = recordCount(t);
    if (count > this.deps.maxRecords) throw Invalid.field('template', `holds ${count} records, more than one zone may hold (${this.deps.maxRecords}, MAX_RECORDS_PER_ZONE)`);
    const build = templateBuild(t, variables, 'merge');
    return async (edit: Edit) => {
      await build(edit);
      await edit.tx.zoneTemplates.set({ domain_id: edit.zone.id, template_id: t.id, variables, applied_at: edit.now.toISOString() });
    };
  }

  /** Applies the template to these zones, one change set each under one batch (a dry run previews it). */
  async apply(asker: Asker, id: number, body: { zones: string[]; mode?: ApplyMode; variables?: Record<string, unknown> }, opts: WriteOptions): Promise<BatchResult> {
    const variables = parseVariables(body.variables);
    const t = await visible(this.deps.store, asker.userId, id);
    const mode = body.mode ?? 'merge';
    const names = [...new Set(body.zones)];
    const list: DomainRow[] = [];
    for (const [i, name] of names.entries()) list.push(await askedZone(this.deps.zones, asker, name, `zones.${i}`));
    await this.bound(t, list, mode);
    const jobs = list.map((zone) => ({
      zone,
      build: templateBuild(t, variables, mode),
      after: async (tx: ServiceRepos, z: DomainRow) => tx.zoneTemplates.set({ domain_id: z.id, template_id: t.id, variables, applied_at: new Date().toISOString() }),
    }));
    return this.deps.batches.run(asker.userId, jobs, { ...opts, comment: opts.comment || `template ${t.name} (${mode})` });
  }

  /**
   * The zones that came from the template (those the asker may read), each with how it differs
   * from it now. One answer compares at most MAX_RECORDS_PER_ZONE records in all (a big template
   * applied to many zones, one request at a time, would otherwise make this read unbounded): the
   * zones past that are listed with `drifted: null`, to be asked one by one.
   */
  async zones(asker: Asker, id: number) {
    const { store, zones, maxRecords } = this.deps;
    const t = await visible(store, asker.userId, id);
    const count = recordCount(t);
    let budget = maxRecords;
    const out = [];
    for (const { zone, variables, applied_at } of await store.zoneTemplates.zonesOf(t.id)) {
      if (!(await zones.owned(asker.userId, zone.name).catch(() => null))) continue;
      if (asker.scope && !allowsZone(asker.scope, zone.name)) continue;
      if (count > budget) {
        const problem = `not compared: one answer compares at most ${maxRecords} records (MAX_RECORDS_PER_ZONE); GET /domains/${zone.name}/template compares this zone`;
        out.push({ zone: zone.name, applied_at, variables, drifted: null, differences: [] as Difference[], problem });
        continue;
      }
      budget -= count;
      out.push({ zone: zone.name, applied_at, variables, ...(await drift(store, t, zone, variables)) });
    }
    return out;
  }

  /** The template a zone came from (or had applied last), with how the zone differs from it now; NotFound when none the asker may read. */
  async ofZone(asker: Asker, name: string) {
    const { store } = this.deps;
    const zone = await askedZone(this.deps.zones, asker, name, 'name');
    const link = await store.zoneTemplates.ofDomain(zone.id);
    const t = link && (await visible(store, asker.userId, link.template_id).catch((e) => (e instanceof NotFound ? undefined : Promise.reject(e))));
    if (!link || !t) throw new NotFound(`${zone.name} did not come from a template you may read`);
    return { template: { id: t.id, name: t.name }, zone: zone.name, applied_at: link.applied_at, variables: link.variables, ...(await drift(store, t, zone, link.variables)) };
  }

  /**
   * The work of an apply, counted before anything is built: the template's records in each zone
   * (at most MAX_RECORDS_PER_ZONE), and what the whole request builds, and in replace mode
   * removes, across its zones (at most MAX_RECORDS_PER_ZONE too: one request costs no more than
   * the largest write of one zone, however many zones it spreads over). The zone's records plus
   * what the apply adds are held to MAX_RECORDS_PER_ZONE by the change set, before it writes.
   */
  private async bound(t: TemplateRow, list: readonly DomainRow[], mode: ApplyMode): Promise<void> {
    const { store, maxRecords } = this.deps;
    const count = recordCount(t);
    if (count > maxRecords) throw Invalid.field('zones', `the template holds ${count} records, more than one zone may hold (${maxRecords}, MAX_RECORDS_PER_ZONE)`);
    let total = 0;
    for (const zone of list) total += count + (mode === 'replace' ? await store.records.zoneCount(zone.id) : 0);
    if (total > maxRecords) {
      const what =
        mode === 'replace'
          ? `${total} records (the template's ${count} in each of ${list.length} zones, and the zones' records it replaces)`
          : `${total} records (${count} in each of ${list.length} zones)`;
      throw Invalid.field('zones', `this apply would build ${what}; one request builds at most ${maxRecords} (MAX_RECORDS_PER_ZONE): apply it to fewer zones at a time`);
    }
  }
}
