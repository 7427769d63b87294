/**
 * A password someone else chose (the first start's, one the admin CLI reset) is changed
 * before the dashboard does anything else: until then the BFF answers 403 `password_change_required`
 * to every data call but reading the account and changing the password. The API and its tokens are
 * not held: scripts keep working, and the CLI that printed the password can mint a token anyway.
 */
import type { Services } from '../services';
import type { SessionRow } from '../store/types';
import { BffError } from './errors';

/** What the "choose a new password" step itself calls. */
const OPEN = [
  { method: 'GET', path: /^\/bff\/api\/account\/?$/ },
  { method: 'PUT', path: /^\/bff\/api\/account\/password\/?$/ },
];

export async function requireOwnPassword(services: Services, row: SessionRow, method: string, path: string): Promise<void> {
  if (OPEN.some((o) => o.method === method && o.path.test(path))) return;
  if (!(await services.store.users.mustChangePassword(row.user_id))) return;
  throw new BffError(403, 'password_change_required', 'Choose a new password first: this one was generated or set by an administrator.');
}
