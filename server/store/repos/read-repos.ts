/**
 * The read-only face of a set of repos: each repository with its read methods alone
 * (READ_METHODS), copied onto a new object. What a ReadStore hands out has no write method at run
 * time, not only in its type: a cast or a namespace import cannot reach one through it.
 */
import { READ_METHODS, type ReadRepos, type Repos } from '../types';

export function readRepos(repos: Repos): ReadRepos {
  const out: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const [name, methods] of Object.entries(READ_METHODS)) {
    const repo = repos[name as keyof Repos] as unknown as Record<string, unknown>;
    out[name] = Object.freeze(Object.fromEntries(methods.map((m) => [m, repo[m]])));
  }
  return Object.freeze(out) as unknown as ReadRepos;
}
