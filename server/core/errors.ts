/**
 * Typed errors thrown by the rules and services. One mapper at the HTTP edge turns
 * them into the one error body (docs/api.md, "Errors"); the CLI prints their message.
 */
export abstract class ZonedeckError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly fields?: Record<string, string>;
  /** Response headers the error's answer carries (`Retry-After`). */
  readonly headers?: Record<string, string>;
  constructor(message: string, fields?: Record<string, string>) {
    super(message);
    this.fields = fields;
  }
}

/** Bad input: each entry of `fields` names the field and says what is wrong with it. */
export class Invalid extends ZonedeckError {
  readonly status = 400;
  readonly code = 'invalid_field';
  declare readonly fields: Record<string, string>;
  constructor(fields: Record<string, string>, message?: string) {
    const first = Object.entries(fields)[0];
    super(message ?? (first ? `${first[0]}: ${first[1]}` : 'invalid input'), fields);
  }
  static field(field: string, message: string): Invalid {
    return new Invalid({ [field]: message });
  }
}

export class NotFound extends ZonedeckError {
  readonly status = 404;
  readonly code = 'not_found';
}

/** Conflicts with data already stored: a taken name, a duplicate, CNAME exclusivity. */
export class Conflict extends ZonedeckError {
  readonly status = 409;
  readonly code = 'conflict';
}

/** Allowed for nobody, e.g. changing the apex NS set the service manages. */
export class Forbidden extends ZonedeckError {
  readonly status = 403;
  readonly code = 'forbidden';
}

/** A write to a secondary zone, whose records its primary alone writes (by zone transfer). */
export class SecondaryZone extends ZonedeckError {
  readonly status = 403;
  readonly code = 'secondary_zone';
  constructor(zone: string) {
    super(`${zone} is a secondary zone: its records come from its primaries by zone transfer and cannot be changed here`);
  }
}

/** A write guarded by `If-Match` found the zone at another serial (RFC 9110 §13.1.1). */
export class PreconditionFailed extends ZonedeckError {
  readonly status = 412;
  readonly code = 'precondition_failed';
}

/**
 * The client went away before a long piece of work was done: it stops, and nothing of it is
 * written. Nobody reads the answer; its status (nginx's 499) is for the log.
 */
export class ClientGone extends ZonedeckError {
  readonly status = 499;
  readonly code = 'client_closed_request';
  constructor() {
    super('the client closed the request before it was done; nothing was changed');
  }
}

/** A value that fails a rule of `core/`; callers attach the field name. */
export class RuleError extends Error {}

/** A sensitive act (a token or key, a second factor) after a sign-in more than 10 minutes old: the user must give their password again. */
export class ReauthenticationRequired extends ZonedeckError {
  readonly status = 403;
  readonly code = 'reauthentication_required';
}

/** Seconds a client waits before trying again while the database does not answer. */
export const STORE_RETRY_AFTER_S = 5;

/**
 * The database does not answer (restarting, failing over, gone): nothing is wrong with the
 * request, so it is worth sending again shortly. The store throws it for every connection
 * failure; when the failure cut a COMMIT short, the message says the change may be stored.
 */
export class StoreUnavailable extends ZonedeckError {
  readonly status = 503;
  readonly code = 'store_unavailable';
  override readonly headers = { 'Retry-After': String(STORE_RETRY_AFTER_S) };
  constructor(message = 'the database does not answer for the moment; try again in a few seconds') {
    super(message);
  }
}

/** The disk under the database is full: the write was refused whole, and works again once there is space. */
export class InsufficientStorage extends ZonedeckError {
  readonly status = 507;
  readonly code = 'insufficient_storage';
  constructor(message = 'the disk under the database is full: nothing of this change was written; it can be sent again once there is space') {
    super(message);
  }
}
