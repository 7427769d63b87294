/** Query keys of the user's TSIG keys; `['tsig-keys']` invalidates every page at once. */
export const tsigKeyKeys = {
  all: ['tsig-keys'] as const,
  page: (page: number, perPage: number) => ['tsig-keys', 'page', { page, perPage }] as const,
};
