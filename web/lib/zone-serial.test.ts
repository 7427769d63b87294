import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import type { Domain } from './api-types';
import { domainKeys } from './domain-keys';
import { guardedWrite, isStale } from './zone-serial';

const zone = 'example.com';
const loaded = (serial: number) => {
  const qc = new QueryClient();
  qc.setQueryData<Domain>(domainKeys.detail(zone), { name: zone, serial_number: serial, updated_at: '2026-11-23T10:00:00Z' } as Domain);
  return qc;
};
const serialOf = (qc: QueryClient) => qc.getQueryData<Domain>(domainKeys.detail(zone))!.serial_number;

describe('guardedWrite', () => {
  it('sends the serial the editor loaded and moves it on to the one the write answers', async () => {
    const qc = loaded(2026112301);
    const sent: Array<number | undefined> = [];
    const write = async (ifMatch: number | undefined) => {
      sent.push(ifMatch);
      return { data: 'ok', serial: (ifMatch ?? 0) + 1 };
    };
    expect(await guardedWrite(qc, zone, write)).toBe('ok');
    await guardedWrite(qc, zone, write);
    expect(sent).toEqual([2026112301, 2026112302]);
    expect(serialOf(qc)).toBe(2026112303);
  });

  it('keeps the loaded serial when the write is refused', async () => {
    const qc = loaded(7);
    const stale = new ApiError(412, 'precondition_failed', 'x has changed', { 'If-Match': 'the zone is at serial 8' });
    const err = await guardedWrite(qc, zone, async () => Promise.reject(stale)).catch((e: unknown) => e);
    expect(isStale(err)).toBe(true);
    expect(isStale(new ApiError(409, 'conflict', 'no'))).toBe(false);
    expect(serialOf(qc)).toBe(7);
  });
});
