/** Query keys of the user's webhooks; `['webhooks']` refreshes them all, `['webhooks', id]` one with its deliveries. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: ['webhooks', 'list'] as const,
  detail: (id: number) => ['webhooks', id] as const,
  deliveries: (id: number) => ['webhooks', id, 'deliveries'] as const,
};
