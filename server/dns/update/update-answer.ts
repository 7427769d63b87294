/**
 * The answer to a verified UPDATE (RFC 2136): parsed here (FORMERR, NOTZONE…), handed to the
 * main thread's services to apply (every write happens there), answered with the RCODE they give
 * and the zone section.
 */
import type { UpdateRequest } from '../../services/changes/dynamic-updates';
import { RCODE } from '../index/rrset';
import type { SignedRequest } from '../tsig/keyring';
import { errorResponse } from '../wire/response';
import { parseUpdate } from './update-message';

/** What an UPDATE asks of the server (part of the handler's options). */
export interface UpdateOptions {
  /** Applies a verified RFC 2136 update and answers its RCODE; without it UPDATE is NOTIMP. */
  update?(req: UpdateRequest): Promise<number>;
  /**
   * RATE_LIMIT_UPDATE's per-key bucket, taken in this thread before an update is handed on: a key's
   * flood is refused here and never reaches the main thread (which takes the shared per-key and
   * per-zone buckets again). Per key only: a zone's bucket is taken once the key may write to it.
   */
  updateAllowed?(key: string): boolean;
  onError?(err: unknown): void;
}

export function answerUpdate(options: UpdateOptions, msg: Buffer, signed: SignedRequest, address: string): Buffer[] | Promise<Buffer[]> {
  const p = parseUpdate(msg);
  if (p.kind === 'error') return [errorResponse(msg, p.rcode, p.zoneEnd)];
  if (!options.update) return [errorResponse(msg, RCODE.NOTIMP, p.zoneEnd)];
  if (options.updateAllowed && !options.updateAllowed(signed.key.name)) return [errorResponse(msg, RCODE.REFUSED, p.zoneEnd)];
  return options
    .update({ zone: p.zone, prerequisites: p.prerequisites, updates: p.updates, key: signed.key.name, address })
    .catch((err: unknown) => {
      options.onError?.(err);
      return RCODE.SERVFAIL as number;
    })
    .then((rcode) => [errorResponse(msg, rcode, p.zoneEnd)]);
}
