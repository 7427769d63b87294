/** Every record of a zone: the editor filters, sorts and virtualizes them in the browser. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { requestAll } from '../../lib/api-client';
import type { DnsRecord } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { domainKeys } from '../../lib/domain-keys';

export const listRecords = (domain: string, signal?: AbortSignal) => requestAll<DnsRecord>(bff.records(domain), {}, signal);

export const recordsQuery = (domain: string) => queryOptions({ queryKey: domainKeys.records(domain), queryFn: ({ signal }) => listRecords(domain, signal) });

export const useRecords = (domain: string) => useQuery(recordsQuery(domain));
