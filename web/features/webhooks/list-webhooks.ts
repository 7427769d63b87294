/** The user's webhooks (a bare array, never with a secret), and one of them. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Webhook } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { webhookKeys } from './keys';

export const listWebhooks = (signal?: AbortSignal) => request<Webhook[]>('GET', bff.webhooks, { signal });
export const getWebhook = (id: number, signal?: AbortSignal) => request<Webhook>('GET', bff.webhook(id), { signal });

export const webhooksQuery = queryOptions({ queryKey: webhookKeys.list, queryFn: ({ signal }) => listWebhooks(signal) });
export const webhookQuery = (id: number) => queryOptions({ queryKey: webhookKeys.detail(id), queryFn: ({ signal }) => getWebhook(id, signal) });

export const useWebhooks = () => useQuery(webhooksQuery);
export const useWebhook = (id: number) => useQuery(webhookQuery(id));
