/**
 * The serial the editor's view of a zone was loaded at (the domain query's `serial_number`).
 * Every write the editor sends carries it as If-Match, so a zone someone else changed in the
 * meantime answers 412 instead of being overwritten; each write's ETag then
 * moves it on. The records are not refetched after the editor's own writes, so neither is the
 * serial: picking up a newer one in the background would let the next write overwrite changes
 * the user has never seen.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ApiError, type Written } from './api-client';
import type { Domain } from './api-types';
import { domainKeys } from './domain-keys';

/** Writes to one zone run one after another, so each one reads the serial the previous one left. */
export const zoneScope = (zone: string) => ({ id: `zone:${zone}` });

export const loadedSerial = (qc: QueryClient, zone: string): number | undefined => qc.getQueryData<Domain>(domainKeys.detail(zone))?.serial_number;

/** Sends `write` with the loaded serial as If-Match and keeps the serial its answer reports. */
export async function guardedWrite<T>(qc: QueryClient, zone: string, write: (ifMatch: number | undefined) => Promise<Written<T>>): Promise<T> {
  const before = loadedSerial(qc, zone);
  const { data, serial } = await write(before);
  if (serial !== undefined && serial !== before) {
    qc.setQueryData<Domain>(domainKeys.detail(zone), (d) => (d ? { ...d, serial_number: serial, updated_at: new Date().toISOString() } : d));
  }
  return data;
}

/** A write refused because the zone has moved on since the editor loaded it. */
export const isStale = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 412;
