/**
 * `nameservers move`: zones moved to NAMESERVERS (the CLI's, from the same environment or .env as
 * the server), each by a change set of its own that the running server serves and notifies at once.
 * Without --from every primary zone whose apex NS set is not NAMESERVERS moves (a set made by hand
 * too: the operator asked); --zones limits it; --dry-run prints what would move.
 */
import type { Context } from './handlers';

const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export async function moveNameservers({ values, services, out }: Pick<Context, 'values' | 'services' | 'out'>): Promise<void> {
  const s = await services();
  const to = s.nameservers.configured;
  const dryRun = values['dry-run'] ?? false;
  const result = await s.nameservers.move({ to, from: list(values.from), zones: list(values.zones), dryRun, actor: { username: '', credential: 'cli' } });
  for (const z of result.moved) out(`${z.name}: ${dryRun ? 'would move' : 'moved'} from ${z.nameservers.join(', ') || 'none'} to ${to.join(', ')}`);
  for (const z of result.skipped) out(`${z.name}: not moved: ${z.why}`);
  for (const z of result.failed) out(`${z.name}: failed: ${z.error}`);
  out(`${result.moved.length} zone${result.moved.length === 1 ? '' : 's'} ${dryRun ? 'would move' : 'moved'} to ${to.join(', ')}`);
  if (result.failed.length > 0) process.exitCode = 1;
}
