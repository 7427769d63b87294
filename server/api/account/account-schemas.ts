/**
 * The request and response schemas of the account, user administration and audit endpoints
 *: they validate requests at the edge and generate the OpenAPI document.
 */
import { z } from '@hono/zod-openapi';
import { AUDIT_KINDS } from '../../services/identity/audit';
import { MAX_PASSWORD, MIN_PASSWORD } from '../../services/identity/users';

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});
const flag = () => z.boolean(required('true or false'));
const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-21T09:30:00.000Z' });
/** A username as typed: its rules (letters, digits, `.`, `-`, `_`) are the service's. */
const username = z.string(required('a string')).max(64, 'must be at most 64 characters').openapi({ example: 'alice' });

export const AccountSchema = z
  .object({
    username: z.string().openapi({ example: 'alice' }),
    is_admin: z.boolean().openapi({ description: 'Manages users and every team' }),
    created_at: timestamp,
  })
  .openapi('Account');

export const PasswordChangeSchema = z
  .strictObject({
    current_password: z.string(required('a string')).max(MAX_PASSWORD, `must be at most ${MAX_PASSWORD} characters`),
    new_password: z.string(required('a string')).min(MIN_PASSWORD, `must be at least ${MIN_PASSWORD} characters`).max(MAX_PASSWORD, `must be at most ${MAX_PASSWORD} characters`),
  })
  .openapi('PasswordChange');

export const SessionSchema = z
  .object({
    id: z.number().int().openapi({ description: "The session's id (the id of the token it acts with)" }),
    created_at: timestamp.openapi({ description: 'When it signed in' }),
    last_seen_at: timestamp.openapi({ description: 'Within a minute' }),
    expires_at: timestamp.openapi({ description: 'When it ends at the latest (it ends sooner when left idle)' }),
    current: z.boolean().openapi({ description: 'True for the session that made this request' }),
    user_agent: z.string().nullable().openapi({ description: "The browser's User-Agent at sign-in (null: a session from before this was kept)" }),
    address: z.string().nullable().openapi({ description: "The client's address at sign-in (behind TRUSTED_PROXIES, the one they forwarded)" }),
  })
  .openapi('Session');

export const UserSchema = z
  .object({
    username: z.string().openapi({ example: 'alice' }),
    is_admin: z.boolean(),
    disabled: z.boolean().openapi({ description: 'A disabled user cannot sign in; none of their tokens or TSIG keys work' }),
    created_at: timestamp,
  })
  .openapi('User');

export const UserCreateSchema = z
  .strictObject({
    username,
    is_admin: flag().optional().openapi({ description: 'Make the user an administrator (default false)' }),
  })
  .openapi('UserCreate');

export const UserCreatedSchema = UserSchema.extend({
  password: z.string().openapi({ description: 'The one-time password: shown in this response only; pass it on to the user' }),
}).openapi('UserCreated');

export const UserUpdateSchema = z
  .strictObject({
    is_admin: flag().optional(),
    disabled: flag().optional().openapi({ description: 'true ends their sessions and stops their tokens and TSIG keys; false lets them in again' }),
  })
  .openapi('UserUpdate');

export const NewPasswordSchema = z.object({ password: z.string().openapi({ description: 'The new one-time password, shown in this response only' }) }).openapi('NewPassword');

/** An ISO 8601 date or date and time (with a zone): what `since` and `until` take. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

const instant = (name: string, description: string) =>
  z
    .string()
    .max(40, 'must be an ISO 8601 time, e.g. 2026-11-21T09:30:00Z')
    .regex(ISO_TIME, 'must be an ISO 8601 time, e.g. 2026-11-21T09:30:00Z')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 time, e.g. 2026-11-21T09:30:00Z')
    .transform((s) => new Date(s).toISOString())
    .optional()
    .openapi({ param: { name, in: 'query' }, example: '2026-11-21T00:00:00Z', description });

export const auditQuery = {
  kind: z
    .enum(AUDIT_KINDS, { error: `must be one of ${AUDIT_KINDS.join(', ')}` })
    .optional()
    .openapi({ param: { name: 'kind', in: 'query' }, description: 'Only events of this kind' }),
  username: z
    .string()
    .max(64, 'must be at most 64 characters')
    .optional()
    .openapi({ param: { name: 'username', in: 'query' }, description: 'Only events this user did or that concern them' }),
  team: z
    .string()
    .max(64, 'must be at most 64 characters')
    .optional()
    .openapi({ param: { name: 'team', in: 'query' }, description: 'Only events of this team' }),
  since: instant('since', 'Only events at or after this time'),
  until: instant('until', 'Only events before this time'),
};

export const AuditEventSchema = z
  .object({
    id: z.number().int(),
    created_at: timestamp,
    kind: z.enum(AUDIT_KINDS),
    actor: z
      .object({
        username: z.string().nullable().openapi({ description: 'null for the admin CLI and for a sign-in under an unknown name' }),
        credential: z.string().openapi({ example: 'token:7', description: '`token:<id>`, `session` (the dashboard), `password` (a sign-in), `cli`' }),
      })
      .openapi({ description: 'Who did it' }),
    address: z.string().nullable().openapi({ example: '198.51.100.7', description: "The client's address, when known" }),
    user_agent: z.string().nullable(),
    subject: z.string().nullable().openapi({ description: 'Whose account it concerns (a sign-in attempt: the name tried)' }),
    team: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()).openapi({ description: 'What else the event says: token id and label, key name, role …' }),
  })
  .openapi('AuditEvent');
