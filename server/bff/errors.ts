/** BFF failures; the app's one onError maps them to the error body of DESIGN.md §3. */
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
