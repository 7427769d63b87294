/** An HTTP-level failure (authentication, body framing, limits) with the same shape as service errors. */
import { ZonedeckError } from '../core/errors';

export class HttpError extends ZonedeckError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    fields?: Record<string, string>,
    override readonly headers: Record<string, string> = {},
  ) {
    super(message, fields);
  }
}
