/** BFF failures; the app's one onError maps them to the one error body (docs/api.md, "Errors"). */
import { ZonedeckError } from '../core/errors';

export class BffError extends ZonedeckError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const signedOut = () => new BffError(401, 'signed_out', 'you are not signed in, or your session has expired');
