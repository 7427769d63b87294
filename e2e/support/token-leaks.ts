/**
 * What counts as an API token leaking to the browser. Nothing shaped like a token may reach
 * it, with one exception: the body of a successful `POST /bff/api/tokens`, where the user
 * asked for a new token and is shown its secret once. Even there the secret must sit only in
 * the `token` field, and the token must not be the session's own (`current` is false: the
 * API marks the token the request was made with, which through the BFF is the session's).
 */

/** The shape of every API token (server/services/identity/secrets.ts). */
export const TOKEN_PATTERN = /zd_[A-Za-z0-9_-]{32}/;
const WHOLE_TOKEN = /^zd_[A-Za-z0-9_-]{32}$/;

export interface SeenResponse {
  url: string;
  method: string;
  status: number;
}

const isTokenCreation = (r: SeenResponse) => r.method === 'POST' && r.status === 201 && new URL(r.url).pathname === '/bff/api/tokens';

/** Why these response headers leak a token, or null: no header may ever carry one. */
export function headerLeak(r: SeenResponse, headers: Record<string, string>): string | null {
  return TOKEN_PATTERN.test(JSON.stringify(headers)) ? `${r.url}: a token in the headers` : null;
}

/** Why this response body leaks a token, or null when it does not. */
export function bodyLeak(r: SeenResponse, body: string): string | null {
  if (!TOKEN_PATTERN.test(body)) return null;
  if (!isTokenCreation(r)) return `${r.url}: a token in the body`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `${r.url}: a token in a body that is not JSON`;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return `${r.url}: a token outside a token object`;
  const { token, ...rest } = parsed as Record<string, unknown>;
  if (typeof token !== 'string' || !WHOLE_TOKEN.test(token)) return `${r.url}: a token outside the "token" field`;
  if (TOKEN_PATTERN.test(JSON.stringify(rest))) return `${r.url}: a second token beside the new one`;
  if (rest.current !== false) return `${r.url}: the new token is not marked current: false (the session's own token?)`;
  return null;
}
