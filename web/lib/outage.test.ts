import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { OutageWatch, outageOf } from './outage';

const storeGone = (retryAfterS?: number) => new ApiError(503, 'store_unavailable', 'the database does not answer for the moment; try again in a few seconds', {}, undefined, retryAfterS);
const diskFull = () => new ApiError(507, 'insufficient_storage', 'the disk under the database is full: nothing of this change was written');

describe('what an error says about the service', () => {
  it('reads the database away and the disk full from their answers, and nothing else as an outage', () => {
    expect(outageOf(storeGone(5))).toBe('store_unavailable');
    expect(outageOf(diskFull())).toBe('insufficient_storage');
    // Shed load, a refused field, a server fault, the network: none of them makes the service read-only.
    expect(outageOf(new ApiError(503, 'overloaded', 'busy', {}, undefined, 2))).toBeNull();
    expect(outageOf(new ApiError(400, 'invalid_field', 'ttl: bad', { ttl: 'bad' }))).toBeNull();
    expect(outageOf(new ApiError(500, 'internal', 'oops'))).toBeNull();
    expect(outageOf(new ApiError(0, 'network', 'unreachable'))).toBeNull();
    expect(outageOf(new Error('x'))).toBeNull();
  });
});

describe('the outage watch', () => {
  it('begins at the first 503 store_unavailable with its Retry-After, and tells its listeners once', () => {
    const watch = new OutageWatch();
    const told = vi.fn();
    watch.subscribe(told);
    watch.saw('GET', storeGone(7));
    watch.saw('POST', storeGone(7));
    expect(watch.get()).toEqual({ kind: 'store_unavailable', retryAfterS: 7 });
    expect(told).toHaveBeenCalledTimes(1);
  });

  it('takes the server default of 5 s when an answer names no Retry-After', () => {
    const watch = new OutageWatch();
    watch.saw('POST', storeGone());
    expect(watch.get()).toEqual({ kind: 'store_unavailable', retryAfterS: 5 });
  });

  it('ends on a write that goes through, never on a read: a read works while the disk is full', () => {
    const watch = new OutageWatch();
    watch.saw('POST', diskFull());
    watch.saw('GET', null);
    expect(watch.get()?.kind).toBe('insufficient_storage');
    watch.saw('PUT', null);
    expect(watch.get()).toBeNull();
  });

  it('keeps the database away over a full disk, and ignores errors that are not outages', () => {
    const watch = new OutageWatch();
    watch.saw('GET', storeGone(5));
    watch.saw('POST', diskFull());
    watch.saw('POST', new ApiError(409, 'conflict', 'taken'));
    expect(watch.get()?.kind).toBe('store_unavailable');
  });

  it('ends when told the service answers again, and a listener that left hears nothing', () => {
    const watch = new OutageWatch();
    const told = vi.fn();
    const leave = watch.subscribe(told);
    watch.saw('DELETE', storeGone(5));
    watch.over();
    leave();
    watch.saw('DELETE', storeGone(5));
    expect(told.mock.calls).toEqual([[{ kind: 'store_unavailable', retryAfterS: 5 }], [null]]);
  });
});
