/** Team membership the way users make it, for tests that need members: an owner invites, the user accepts. */
import type { Role } from '../core/roles';
import type { TestApp } from './test-app';

/** One API call (`path` under /api/v1) with a user's token: in memory or against a running server. */
export type ApiAs = (token: string, method: string, path: string, body?: unknown) => Promise<Response>;

/** `ApiAs` over an in-memory test app. */
export const inMemory =
  (t: TestApp): ApiAs =>
  (token, method, path, body) =>
    t.request(method, `/api/v1${path}`, { token, body });

/** `ApiAs` against a running server at `http`. */
export const overHttp =
  (http: string): ApiAs =>
  (token, method, path, body) =>
    fetch(`${http}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

/** Makes `member` a member of `team` with `role`: `owner` (a token) invites, the member accepts; throws on any other answer. */
export async function join(as: ApiAs, team: string, owner: string, member: { username: string; token: string }, role: Role): Promise<void> {
  const invited = await as(owner, 'POST', `/teams/${encodeURIComponent(team)}/members`, { username: member.username, role });
  if (invited.status !== 201) throw new Error(`inviting ${member.username} into ${team}: ${invited.status} ${await invited.text()}`);
  const accepted = await as(member.token, 'POST', `/invitations/${encodeURIComponent(team)}/accept`);
  if (accepted.status !== 200) throw new Error(`${member.username} accepting ${team}: ${accepted.status} ${await accepted.text()}`);
}
