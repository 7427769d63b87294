/**
 * Creating, changing and deleting webhooks. A creation's answer holds the secret, so it stays in
 * that mutation's result only (never in the query cache) until the user is done with it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { Webhook, WebhookCreate, WebhookCreated, WebhookUpdate } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { webhookKeys } from './keys';

export const createWebhook = (body: WebhookCreate) => request<WebhookCreated>('POST', bff.webhooks, { body });
export const updateWebhook = (id: number, body: WebhookUpdate) => request<Webhook>('PUT', bff.webhook(id), { body });
export const deleteWebhook = (id: number) => request<void>('DELETE', bff.webhook(id));

export function useCreateWebhook() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createWebhook, onSuccess: () => void qc.invalidateQueries({ queryKey: webhookKeys.list }) });
}

export function useUpdateWebhook(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookUpdate) => updateWebhook(id, body),
    onSuccess: (hook) => {
      qc.setQueryData(webhookKeys.detail(id), hook);
      void qc.invalidateQueries({ queryKey: webhookKeys.list });
    },
  });
}

export function useDeleteWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: (_void, id) => {
      qc.removeQueries({ queryKey: webhookKeys.detail(id) });
      void qc.invalidateQueries({ queryKey: webhookKeys.list });
    },
  });
}
