/** The templates the user may use (theirs and their teams'), a page at a time. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { requestPage } from '../../lib/api-client';
import type { Template } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { templateKeys } from './keys';

export const templatesQuery = (page: number) =>
  queryOptions({ queryKey: templateKeys.list(page), queryFn: ({ signal }) => requestPage<Template>(bff.templates, { page, per_page: 50 }, signal), placeholderData: keepPreviousData });

export const useTemplates = (page: number) => useQuery(templatesQuery(page));
