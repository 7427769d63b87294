/** Query keys of templates: `['templates']` refreshes them all; one template and its zones live under `['templates', id]`. */
export const templateKeys = {
  all: ['templates'] as const,
  list: (page: number) => ['templates', 'list', { page }] as const,
  one: (id: number) => ['templates', id] as const,
  zones: (id: number) => ['templates', id, 'zones'] as const,
  /** The template a zone came from, at a serial of the zone: its drift changes as the zone does. */
  ofZone: (zone: string, serial: number) => ['templates', 'zone', zone, serial] as const,
};
