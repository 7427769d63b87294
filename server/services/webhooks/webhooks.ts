/**
 * Webhooks: a user's HTTP endpoints that hear of what happens to the zones the user may read (or a
 * team's zones, or a list of zones), each body signed with the webhook's secret. Here: the webhooks
 * made, listed, changed and deleted by their owner (another user's is NotFound, like a missing one),
 * their delivery logs, a redelivery or a ping, and `emit`, which the sources of events (handed it by
 * the composition root) call to queue one delivery per webhook that should hear of an event. The
 * sending is the driver's (delivery-driver.ts).
 */
import { randomUUID } from 'node:crypto';
import { normalizeZoneName } from '../../core/domain-name';
import { Forbidden, Invalid, NotFound } from '../../core/errors';
import { isPublicAddress } from '../../core/ip-range';
import { backgroundFailures } from '../../metrics';
import type { DeliveryRow, DomainRow, NewDelivery, Page, ServiceRepos, ServiceStore, UserRow, WebhookChange, WebhookRow, Window } from '../../store/types';
import { FieldCheck } from '../changes/rule-fields';
import type { Transition } from '../health/checker';
import { roleOn, teamFor } from '../zones/access';
import { DeliveryDriver, type DriverOptions, type WebhookNetwork } from './delivery-driver';
import { MAX_WEBHOOK_ZONES, webhookDescription, webhookEvents, webhookSecret, webhookUrl, type AddressRefusal, type DeliveredEvent, type WebhookEvent } from './webhook-rules';

export const DEFAULT_MAX_WEBHOOKS = 20;
/** How long the list of active webhooks read for an event serves the next events (a change made on this node forgets it at once). */
const ACTIVE_CACHE_MS = 5_000;

export interface WebhookSettings {
  /** WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** MAX_WEBHOOKS_PER_USER. */
  maxPerUser: number;
  /** WEBHOOK_RETRY_FIRST_S: the wait before the first retry (then doubled, up to an hour). */
  retryFirstS: number;
}

export interface WebhookInput {
  url: string;
  events: string[];
  zones?: string[] | null;
  team?: string | null;
  secret?: string;
  description?: string;
}

export type WebhookUpdate = Partial<Pick<WebhookInput, 'url' | 'events' | 'zones' | 'secret' | 'description'>> & { active?: boolean };

/** The body of one event, as every webhook that takes it receives it. */
export interface EventBody {
  id: string;
  event: DeliveredEvent;
  created_at: string;
  zone: string | null;
  data: unknown;
}

/** Without a judge of its own (the CLI, a test): anything but a public address is refused. */
const publicOnly: AddressRefusal = (ip) => (isPublicAddress(ip) ? null : 'which is not a public address');

export class Webhooks {
  private driver: DeliveryDriver | null = null;
  private network: WebhookNetwork | null = null;
  private log: DriverOptions['log'] | null = null;
  private readonly queuing = new Set<Promise<void>>();
  private readonly active = new Map<string, { at: number; rows: Promise<WebhookRow[]> }>();

  constructor(
    private readonly store: ServiceStore,
    readonly settings: WebhookSettings,
  ) {}

  /** Starts sending deliveries through `network` (main.ts); `stop` ends it. */
  start(network: WebhookNetwork, options: DriverOptions): DeliveryDriver {
    this.network = network;
    this.log = options.log;
    this.driver = new DeliveryDriver(this.store, network, { allowPrivate: this.settings.allowPrivate, retryFirstS: this.settings.retryFirstS }, options);
    this.driver.start();
    return this.driver;
  }

  stop(): void {
    this.driver?.stop();
    this.driver = null;
  }

  list(user: UserRow): Promise<WebhookRow[]> {
    return this.store.webhooks.listByUser(user.id);
  }

  /** The user's webhook; anyone else's, or none, is NotFound. */
  async get(user: UserRow, id: number): Promise<WebhookRow> {
    const hook = await this.store.webhooks.byId(id);
    if (!hook || hook.user_id !== user.id) throw new NotFound(`no webhook ${id}`);
    return hook;
  }

  async create(user: UserRow, input: WebhookInput): Promise<WebhookRow> {
    const max = this.settings.maxPerUser;
    const row = await this.store.transaction(async (tx) => {
      const check = new FieldCheck();
      const url = check.run('url', () => webhookUrl(input.url, this.refusal, this.settings.allowPrivate));
      const events = webhookEvents(input.events, (f, m) => check.fail(f, m));
      const secret = check.run('secret', () => webhookSecret(input.secret));
      const description = check.run('description', () => webhookDescription(input.description ?? ''));
      const teamId = input.team == null ? null : await this.teamOf(tx, user, input.team, check);
      const zones = await this.zoneList(tx, user, teamId, input.zones, check);
      check.done();
      await tx.quotas.lock('webhooks', user.id);
      if ((await tx.quotas.count('webhooks', user.id)) >= max) {
        throw new Forbidden(`this account already holds ${max} webhooks; ${max} is the most one user may have (MAX_WEBHOOKS_PER_USER): delete one first`);
      }
      return tx.webhooks.insert({ user_id: user.id, team_id: teamId, url: url!, events, zones, description: description!, secret: secret!, active: true, created_at: new Date().toISOString() });
    });
    this.active.clear();
    return row;
  }

  async update(user: UserRow, id: number, input: WebhookUpdate): Promise<WebhookRow> {
    const hook = await this.get(user, id);
    const check = new FieldCheck();
    const change: WebhookChange = {};
    if (input.url !== undefined) change.url = check.run('url', () => webhookUrl(input.url!, this.refusal, this.settings.allowPrivate));
    if (input.events !== undefined) change.events = webhookEvents(input.events, (f, m) => check.fail(f, m));
    if (input.secret !== undefined) change.secret = check.run('secret', () => webhookSecret(input.secret));
    if (input.description !== undefined) change.description = check.run('description', () => webhookDescription(input.description!));
    if (input.active !== undefined) change.active = input.active;
    if (input.zones !== undefined) change.zones = await this.zoneList(this.store, user, hook.team_id, input.zones, check);
    check.done();
    const updated = await this.store.webhooks.update(hook.id, change);
    this.active.clear();
    if (!updated) throw new NotFound(`no webhook ${id}`);
    return updated;
  }

  async remove(user: UserRow, id: number): Promise<void> {
    const hook = await this.get(user, id);
    await this.store.webhooks.delete(hook.id);
    this.active.clear();
  }

  /** The webhook's deliveries, newest first. */
  async deliveries(user: UserRow, id: number, w: Window): Promise<Page<DeliveryRow>> {
    const hook = await this.get(user, id);
    return this.store.webhookDeliveries.page(hook.id, w);
  }

  /** Sends a delivery again now; a failed one is pending again (its next failure past the 24 h ends it again). */
  async redeliver(user: UserRow, id: number, deliveryId: number): Promise<DeliveryRow> {
    const hook = await this.get(user, id);
    const delivery = await this.store.webhookDeliveries.byId(hook.id, deliveryId);
    if (!delivery) throw new NotFound(`webhook ${id} has no delivery ${deliveryId}`);
    await this.store.webhookDeliveries.redeliver(delivery.id, new Date().toISOString());
    this.driver?.soon();
    return (await this.store.webhookDeliveries.byId(hook.id, delivery.id))!;
  }

  /** Queues a `ping` to the webhook, whatever events it takes (and even while it is inactive). */
  async ping(user: UserRow, id: number): Promise<DeliveryRow> {
    const hook = await this.get(user, id);
    const body = eventBody('ping', null, { webhook: { id: hook.id, url: hook.url, events: hook.events } });
    await this.store.webhookDeliveries.insertMany([deliveryOf(hook, body)]);
    this.driver?.soon();
    return (await this.store.webhookDeliveries.page(hook.id, { offset: 0, limit: 1 })).rows[0]!;
  }

  /**
   * Queues one delivery of `event` about the zone to every active webhook that takes it and should
   * hear of this zone: its owner may read the zone (for a team's webhook: the zone is the team's and
   * the owner still a member), and the zone is in its list when it has one. A zone gone is nothing.
   */
  async emit(event: WebhookEvent, zoneId: number, data: unknown): Promise<void> {
    const hooks = await this.activeFor(event);
    if (hooks.length === 0) return;
    const zone = await this.store.domains.byId(zoneId);
    if (!zone) return;
    const chosen: WebhookRow[] = [];
    for (const hook of hooks) if (await this.hears(hook, zone)) chosen.push(hook);
    if (chosen.length === 0) return;
    const body = eventBody(event, zone.name, data);
    await this.store.webhookDeliveries.insertMany(chosen.map((hook) => deliveryOf(hook, body)));
    this.driver?.soon();
  }

  /**
   * `emit` for a source that must not wait on it nor fail with it (a zone write, a driver's look):
   * a failure is counted and logged by the driver's logger when it runs, else only counted.
   */
  notify(event: WebhookEvent, zoneId: number, data: unknown): void {
    const queued = this.emit(event, zoneId, data)
      .catch((err: unknown) => {
        backgroundFailures.inc({ job: 'webhook-emit' });
        this.log?.error({ err, event, zoneId }, 'a webhook event could not be queued');
      })
      .finally(() => this.queuing.delete(queued));
    this.queuing.add(queued);
  }

  /** A pool member's move as the node that recorded it tells it (the health checker's `onTransition`): `pool.member.down` or `up`. */
  poolMemberMoved(t: Transition): void {
    this.notify(t.to === 'up' ? 'pool.member.up' : 'pool.member.down', t.zone.id, {
      pool: { id: t.pool.id, name: t.pool.name, type: t.pool.type },
      address: t.address,
      from: t.from,
      to: t.to,
      at: t.at,
      votes: t.votes,
    });
  }

  /** Resolves once every event told so far is queued (before the store closes at shutdown). */
  async idle(): Promise<void> {
    while (this.queuing.size > 0) await Promise.all(this.queuing);
  }

  /** Removes the deliveries older than `days` days (the hourly pruning); how many. */
  prune(days: number, now = new Date()): Promise<number> {
    return this.store.webhookDeliveries.prune(new Date(now.getTime() - days * 86_400_000).toISOString());
  }

  private get refusal(): AddressRefusal {
    return this.network?.addressRefusal ?? publicOnly;
  }

  private activeFor(event: WebhookEvent): Promise<WebhookRow[]> {
    const cached = this.active.get(event);
    if (cached && Date.now() - cached.at < ACTIVE_CACHE_MS) return cached.rows;
    const rows = this.store.webhooks.activeFor(event);
    this.active.set(event, { at: Date.now(), rows });
    rows.catch(() => this.active.delete(event));
    return rows;
  }

  private async hears(hook: WebhookRow, zone: DomainRow): Promise<boolean> {
    if (hook.zones && !hook.zones.includes(zone.name)) return false;
    const owner = await this.store.users.byId(hook.user_id);
    if (!owner || owner.disabled_at) return false;
    if (hook.team_id !== null) return zone.team_id === hook.team_id && (await this.store.teams.member(hook.team_id, hook.user_id)) !== undefined;
    return (await roleOn(this.store, hook.user_id, zone)) !== null;
  }

  /** The team a webhook covers: one the user is a member of (else the `team` field is refused). */
  private async teamOf(tx: ServiceRepos, user: UserRow, name: string, check: FieldCheck): Promise<number | null> {
    try {
      return (await teamFor(tx, user.id, name, 'viewer', 'add webhooks')).id;
    } catch (e) {
      if (!(e instanceof Invalid)) throw e;
      check.fail('team', e.fields.team ?? e.message);
      return null;
    }
  }

  /** The zone names a webhook is limited to: each a zone the user may read (the team's, for a team's webhook); none or null: no limit. */
  private async zoneList(repos: ServiceRepos, user: UserRow, teamId: number | null, input: readonly string[] | null | undefined, check: FieldCheck): Promise<string[] | null> {
    if (!input || input.length === 0) return null;
    if (input.length > MAX_WEBHOOK_ZONES) {
      check.fail('zones', `must list at most ${MAX_WEBHOOK_ZONES} zones`);
      return null;
    }
    const out: string[] = [];
    for (const [i, raw] of input.entries()) {
      const name = check.run(`zones.${i}`, () => normalizeZoneName(raw));
      if (name === undefined) continue;
      const zone = await repos.domains.byName(name);
      const readable = zone && (teamId !== null ? zone.team_id === teamId : (await roleOn(repos, user.id, zone)) !== null);
      if (!readable) check.fail(`zones.${i}`, teamId !== null ? `is not a zone of the webhook's team` : 'is not a zone you may read');
      else if (out.includes(name)) check.fail(`zones.${i}`, `lists ${name} a second time`);
      else out.push(name);
    }
    return out;
  }
}

function eventBody(event: DeliveredEvent, zone: string | null, data: unknown): EventBody {
  return { id: randomUUID(), event, created_at: new Date().toISOString(), zone, data };
}

function deliveryOf(hook: WebhookRow, body: EventBody): NewDelivery {
  return { webhook_id: hook.id, event: body.event, event_id: body.id, zone: body.zone, body: JSON.stringify(body), created_at: body.created_at, next_attempt_at: body.created_at };
}
