/** Numeric ids in paths: anything that is not a plausible id names nothing, so it is a 404. */
import { z } from '@hono/zod-openapi';
import { NotFound } from '../core/errors';

export const idParam = z.string().openapi({ param: { name: 'id', in: 'path' }, example: '42' });

/** The id in a path segment; `what` names the thing for the 404 ("record", "change"). */
export function pathId(raw: string, what: string): number {
  if (!/^[0-9]{1,15}$/.test(raw)) throw new NotFound(`no ${what} with id ${raw}`);
  return Number(raw);
}
