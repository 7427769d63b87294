/**
 * A dashboard session of the first start's `admin` on a running server: signed in with the printed
 * password, then past the "choose a new password" step the dashboard asks for first (the new one is
 * returned), so that the session reaches every dashboard call.
 */
import { expect } from 'vitest';
import type { ServerProcess } from './server-process';

export async function adminSession(server: ServerProcess, newPassword = 'the admin password of this test'): Promise<{ cookie: string; csrf: string; password: string }> {
  const signIn = await fetch(`${server.url}/bff/sign-in`, {
    method: 'POST',
    headers: { origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: server.adminPassword }),
  });
  expect(signIn.status).toBe(200);
  const session = { cookie: signIn.headers.get('set-cookie')!.split(';')[0]!, csrf: ((await signIn.json()) as { csrf_token: string }).csrf_token };
  const changed = await fetch(`${server.url}/bff/api/account/password`, {
    method: 'PUT',
    headers: { origin: server.url, 'sec-fetch-site': 'same-origin', cookie: session.cookie, 'x-csrf-token': session.csrf, 'content-type': 'application/json' },
    body: JSON.stringify({ current_password: server.adminPassword, new_password: newPassword }),
  });
  expect(changed.status).toBe(204);
  return { ...session, password: newPassword };
}
