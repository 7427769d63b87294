/**
 * An administrator's work on another user's IP ranges (the Users page): the same ranges, rules and
 * refusals as the CLI's `ips add` and `ips remove` (ips.ts), looked up by username, and each change
 * in the audit log as the administrator's act on that user.
 */
import { NotFound } from '../../core/errors';
import type { Page, ServiceStore, UserRow, Window } from '../../store/types';
import type { AuditActor, createAudit } from './audit';
import type { Ips, IpView } from './ips';

type Audit = ReturnType<typeof createAudit>;

export function createUserIps(store: ServiceStore, ips: Ips, audit: Audit) {
  async function userNamed(username: string): Promise<UserRow> {
    const user = username.length <= 64 ? await store.users.byUsername(username) : undefined;
    if (!user) throw new NotFound(`no user named ${username.slice(0, 64)}`);
    return user;
  }
  const subject = (u: UserRow) => ({ id: u.id, username: u.username });

  return {
    async page(username: string, w: Window): Promise<Page<IpView>> {
      return ips.page((await userNamed(username)).id, w);
    },

    async add(actor: AuditActor, username: string, address: string, active = true): Promise<IpView> {
      const user = await userNamed(username);
      const added = await ips.add(user.id, address, active);
      await audit.record({ kind: 'ip-added', actor, subject: subject(user), detail: { address: `${added.address}/${added.cidr}`, active: added.active } });
      return added;
    },

    /** Removes one of the user's ranges by id; another user's id is not found, like a missing one. */
    async remove(actor: AuditActor, username: string, id: number): Promise<void> {
      const user = await userNamed(username);
      const range = (await ips.all(user.id)).find((ip) => ip.id === id);
      if (!range) throw new NotFound(`${user.username} has no IP record with id ${id}`);
      await ips.remove(id);
      await audit.record({ kind: 'ip-removed', actor, subject: subject(user), detail: { address: `${range.address}/${range.cidr}` } });
    },
  };
}

export type UserIps = ReturnType<typeof createUserIps>;
