/**
 * The `webhooks` and `webhookDeliveries` repos (migration 0030). A webhook's secret is sealed on the
 * way in and opened on the way out, bound to the webhook's id (`webhook:<id>`), so a sealed secret
 * copied into another row does not open there. A delivery is sent under a lease, as a secondary
 * zone is checked: `claim` takes it only while it is pending, due and free.
 */
import type { ExpressionBuilder, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../schema';
import type { SecretBox } from '../secret-box';
import type { DeliveryAttempt, DeliveryRow, DeliveryState, WebhookRepos, WebhookRow } from '../types';
import { count, escapeLike, like, pageTotal } from './paging';

/** What a webhook's secret is bound to when sealed. */
export const webhookAad = (id: number) => `webhook:${id}`;

const deliveryRow = ({ lease_holder: _h, lease_until: _u, ...r }: Selectable<Database['webhook_deliveries']>): DeliveryRow => ({
  ...r,
  status: r.status as DeliveryState,
  attempts: JSON.parse(r.attempts) as DeliveryAttempt[],
});

export function createWebhookRepos(db: Kysely<Database>, box: SecretBox): WebhookRepos {
  const webhookRow = (r: Selectable<Database['webhooks']>): WebhookRow => ({
    ...r,
    events: JSON.parse(r.events) as string[],
    zones: r.zones === null ? null : (JSON.parse(r.zones) as string[]),
    secret: box.open(r.secret, webhookAad(r.id)),
    active: Boolean(r.active),
  });
  const byId = async (id: number) => {
    const r = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    return r && webhookRow(r);
  };
  const free = (now: string) => (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]);
  return {
    webhooks: {
      insert: async ({ secret, ...row }) => {
        // The id is known only once the row is in: the sealed secret, bound to it, follows at once (the caller's transaction holds both).
        const { id } = await db
          .insertInto('webhooks')
          .values({ ...row, events: JSON.stringify(row.events), zones: row.zones === null ? null : JSON.stringify(row.zones), active: row.active ? 1 : 0, secret: '' })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .updateTable('webhooks')
          .set({ secret: box.seal(secret, webhookAad(id)) })
          .where('id', '=', id)
          .execute();
        return (await byId(id))!;
      },
      byId,
      listByUser: async (userId) => (await db.selectFrom('webhooks').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(webhookRow),
      activeFor: async (event) =>
        (
          await db
            .selectFrom('webhooks')
            .selectAll()
            .where('active', '=', 1)
            .where(like('events', `%${escapeLike(JSON.stringify(event))}%`))
            .orderBy('id')
            .execute()
        ).map(webhookRow),
      update: async (id, change) => {
        const set: Updateable<Database['webhooks']> = {};
        if (change.url !== undefined) set.url = change.url;
        if (change.events !== undefined) set.events = JSON.stringify(change.events);
        if (change.zones !== undefined) set.zones = change.zones === null ? null : JSON.stringify(change.zones);
        if (change.description !== undefined) set.description = change.description;
        if (change.secret !== undefined) set.secret = box.seal(change.secret, webhookAad(id));
        if (change.active !== undefined) set.active = change.active ? 1 : 0;
        if (Object.keys(set).length > 0) await db.updateTable('webhooks').set(set).where('id', '=', id).execute();
        return byId(id);
      },
      delete: async (id) => {
        // SQLite enforces no foreign keys here: the deliveries go first, by hand.
        await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
        return Number((await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
      },
    },
    webhookDeliveries: {
      insertMany: async (rows) => {
        if (rows.length === 0) return;
        await db
          .insertInto('webhook_deliveries')
          .values(rows.map((r) => ({ ...r, status: 'pending', attempts: '[]' })))
          .execute();
      },
      byId: async (webhookId, id) => {
        const r = await db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', id).executeTakeFirst();
        return r && deliveryRow(r);
      },
      page: async (webhookId, w) => {
        const rows = await db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).orderBy('id', 'desc').limit(w.limit).offset(w.offset).execute();
        const total = await pageTotal(rows.length, w, () =>
          count(
            db
              .selectFrom('webhook_deliveries')
              .select((e) => e.fn.countAll<number>().as('n'))
              .where('webhook_id', '=', webhookId)
              .executeTakeFirst(),
          ),
        );
        return { rows: rows.map(deliveryRow), total };
      },
      due: async (now, limit) =>
        (
          await db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('status', '=', 'pending')
            .where('next_attempt_at', '<=', now)
            .where(free(now))
            .orderBy('next_attempt_at')
            .orderBy('id')
            .limit(limit)
            .execute()
        ).map((r) => r.id),
      claim: async (id, holder, now, until) => {
        const r = await db
          .updateTable('webhook_deliveries')
          .set({ lease_holder: holder, lease_until: until })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where(free(now))
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return undefined;
        const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
        return row && deliveryRow(row);
      },
      finish: async (id, holder, attempt, next) => {
        const row = await db.selectFrom('webhook_deliveries').select(['attempts', 'lease_holder']).where('id', '=', id).executeTakeFirst();
        if (!row || row.lease_holder !== holder) return;
        const attempts = [...(JSON.parse(row.attempts) as DeliveryAttempt[]), attempt];
        await db
          .updateTable('webhook_deliveries')
          .set({ attempts: JSON.stringify(attempts), status: next.status, next_attempt_at: next.next_attempt_at, lease_holder: null, lease_until: null })
          .where('id', '=', id)
          .where('lease_holder', '=', holder)
          .execute();
      },
      redeliver: async (id, at) => {
        await db.updateTable('webhook_deliveries').set({ status: 'pending', next_attempt_at: at }).where('id', '=', id).execute();
      },
      prune: async (before) => Number((await db.deleteFrom('webhook_deliveries').where('created_at', '<', before).executeTakeFirst()).numDeletedRows),
    },
  };
}
