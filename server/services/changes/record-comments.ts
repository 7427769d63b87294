/**
 * The comment of an RRset as the records API and the dashboard show and set it: the same rows the
 * PowerDNS API reads and writes (its `comments`), one storage. PowerDNS keeps a list per RRset;
 * zonedeck shows the newest one and setting a comment replaces the list with it.
 *
 * Comments are no zone data: nothing served depends on them, so they are not part of a change
 * set's records (no serial, no history). They are written in the transaction of the record write
 * that sets them, judged as a write of that RRset (scope and role), and stay as they are when a
 * record is edited without naming a comment. The last record of an RRset deleted takes its comment
 * along (as PowerDNS's DELETE does); a revert that brings the records back does not bring it back.
 */
import type { ReadRepos, RRsetComment, ServiceRepos } from '../../store/types';
import type { ZoneUpdate } from './change-sets';
import { judgeRole, judgeScope } from './change-sets/guards';

/** The longest comment, in characters. */
export const MAX_RECORD_COMMENT = 512;

const key = (name: string, type: string) => `${name}\u0000${type}`;

/** The comment shown for each RRset of the zone (or of one name), by name and type: the newest of its list. */
export async function commentsOf(repos: Pick<ReadRepos, 'rrsetComments'>, domainId: number, name?: string): Promise<Map<string, string>> {
  const out = new Map<string, RRsetComment>();
  for (const c of await repos.rrsetComments.byDomain(domainId, name)) {
    const k = key(c.name, c.record_type);
    const had = out.get(k);
    if (!had || c.modified_at >= had.modified_at) out.set(k, c);
  }
  return new Map([...out].map(([k, c]) => [k, c.content]));
}

/** The comment of one RRset out of `commentsOf`'s map. */
export const commentAt = (comments: ReadonlyMap<string, string>, r: { name: string; record_type: string }): string | undefined => comments.get(key(r.name, r.record_type));

async function storedList(tx: ServiceRepos, domainId: number, name: string, type: string): Promise<RRsetComment[]> {
  return (await tx.rrsetComments.byDomain(domainId, name)).filter((c) => c.record_type === type);
}

/**
 * Sets (or, with '' or null, clears) the comment of the RRset `name`/`type` inside the open change
 * set `u`, as a write of that RRset: a credential or role that may not write it gets 403, even when
 * its records do not change. Nothing is written when the comment is already that one.
 */
export async function setComment(u: ZoneUpdate, name: string, type: string, comment: string | null): Promise<void> {
  const stored = await storedList(u.tx, u.zone.id, name, type);
  const want = comment ? [comment] : [];
  if (stored.map((c) => c.content).join('\u0000') === want.join('\u0000')) return;
  const touched = { added: [{ name, record_type: type, ttl: 0, content: '' }], removed: [], settings: {} };
  judgeScope(u.actor.scope, u.zone, touched, u);
  await judgeRole(u.tx, u.zone, u.role, touched, u);
  const at = Math.floor(u.now.getTime() / 1000);
  await u.tx.rrsetComments.replace(
    u.zone.id,
    name,
    type,
    want.map((content) => ({ content, account: u.actor.username, modified_at: at })),
  );
}

/**
 * After a record moved from one RRset to another (or left it): an RRset now empty takes its
 * comment to where the record went when that one has none (a rename keeps the comment), else drops it.
 */
export async function followRecord(u: ZoneUpdate, from: { name: string; record_type: string }, to: { name: string; record_type: string } | null): Promise<void> {
  if (to && from.name === to.name && from.record_type === to.record_type) return;
  if (u.draft.rrset(from.name, from.record_type).length > 0) return;
  const old = await storedList(u.tx, u.zone.id, from.name, from.record_type);
  if (old.length === 0) return;
  const kept = old.map(({ content, account, modified_at }) => ({ content, account, modified_at }));
  if (to && (await storedList(u.tx, u.zone.id, to.name, to.record_type)).length === 0) await u.tx.rrsetComments.replace(u.zone.id, to.name, to.record_type, kept);
  await u.tx.rrsetComments.replace(u.zone.id, from.name, from.record_type, []);
}
