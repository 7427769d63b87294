/** Query keys of IP data; a prefix invalidates everything below it. */
export const ipKeys = {
  all: ['ips'] as const,
  page: (page: number, perPage: number) => ['ips', 'page', { page, perPage }] as const,
  everything: ['ips', 'all'] as const,
  usage: ['ips', 'usage'] as const,
};
