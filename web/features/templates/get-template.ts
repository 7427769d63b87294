/** One template, and the zones made from it with their drift. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Template, TemplateZone } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { templateKeys } from './keys';

export const templateQuery = (id: number) => queryOptions({ queryKey: templateKeys.one(id), queryFn: ({ signal }) => request<Template>('GET', bff.template(id), { signal }) });
export const templateZonesQuery = (id: number) => queryOptions({ queryKey: templateKeys.zones(id), queryFn: ({ signal }) => request<TemplateZone[]>('GET', bff.templateZones(id), { signal }) });

export const useTemplate = (id: number) => useQuery(templateQuery(id));
export const useTemplateZones = (id: number) => useQuery(templateZonesQuery(id));
