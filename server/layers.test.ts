/**
 * The layers of the layering (docs/architecture.md) are a lint error, not a convention: the
 * `zonedeck/layers` rule of eslint.config.js, which `npm test` runs over the whole tree, refuses
 * each crossing below — and lets the allowed directions through.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import type { Services } from './services';
import type { Edit } from './services/changes/change-sets';
import type { ServiceRepos } from './store/types';

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

async function verdict(file: string, code: string, rule = 'zonedeck/layers'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('zonedeck/layers', () => {
  it.each([
    ['server/core/x.ts', "import { openStore } from '../store/open';", /core uses nothing of ours|server\/core uses nothing/],
    ['server/core/x.ts', "import fs from 'node:fs';", /core does no I\/O/],
    ['server/services/x.ts', "import { openSqliteStore } from '../store/sqlite';", /server\/services uses/],
    ['server/services/x.ts', "import { publicApi } from '../api';", /server\/services uses/],
    ['server/dns/x.ts', "import { bffApp } from '../bff';", /server\/dns uses/],
    ['server/api/x.ts', "import { startDns } from '../dns/server';", /server\/api uses/],
    ['web/features/records/x.ts', "import { domainKeys } from '../domains/keys';", /features do not import each other/],
    ['web/app/x.ts', "import { buildApp } from '../../server/app';", /imports only server\/core and types/],
  ])('refuses %s importing %s', async (file, code, message) => {
    const found = await verdict(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it.each([
    ['server/services/x.ts', "import type { ServiceStore } from '../store/types';\nimport { Invalid } from '../core/errors';"],
    ['server/dns/x.ts', "import { createChangeSets } from '../services/change-sets';"],
    ['server/services/x.ts', "import { backgroundFailures } from '../metrics';"],
    ['web/features/records/x.ts', "import { recordType } from '../../../server/core/record-types';\nimport type { Services } from '../../../server/services';\nimport { domainKeys } from '../../lib/domain-keys';"],
  ])('lets %s import %s', async (file, code) => {
    expect(await verdict(file, code)).toEqual([]);
  });
});

describe('zonedeck/one-writer: the change sets are the one zone writer', () => {
  it.each([
    ['server/services/zones/zones.ts', "import type { Store } from '../../store/types';"],
    ['server/services/changes/records.ts', "import type { Repos } from '../../store/types';"],
    ['server/api/x.ts', "import type { DomainRow, Store } from '../store/types';"],
    ['server/dns/x.ts', "import { openStore } from '../store/open';"],
    ['server/cli/handlers.ts', "import { openSqliteStore } from '../store/sqlite/sqlite';"],
  ])('refuses %s taking the writer: %s', async (file, code) => {
    const found = await verdict(file, code, 'zonedeck/one-writer');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/zone writes go through services\/changes\/change-sets.ts/);
  });

  it.each([
    ['server/services/changes/change-sets.ts', "import type { Repos, Store } from '../../store/types';"],
    ['server/services/changes/change-sets/commit.ts', "import type { Repos } from '../../../store/types';"],
    ['server/main.ts', "import { openStore } from './store/open';"],
    ['server/services/zones/zones.ts', "import type { ReadRepos, ServiceStore } from '../../store/types';"],
    ['server/api/x.ts', "import type { ReadStore } from '../store/types';"],
  ])('lets %s import %s', async (file, code) => {
    expect(await verdict(file, code, 'zonedeck/one-writer')).toEqual([]);
  });
});

/**
 * And the types: what a layer above the services holds has no write method at all, and a
 * service's transaction holds no zone writer. Each line below must stay a type error
 * (`npm run typecheck` fails on an unused @ts-expect-error), so a writer that leaks back fails the suite.
 */
export function writersAreTypeErrors(services: Services, tx: ServiceRepos, edit: Edit): void {
  // @ts-expect-error the API's store cannot insert records
  void services.store.records.insertMany([]);
  // @ts-expect-error nor bump a serial
  void services.store.domains.update;
  // @ts-expect-error nor write a session, a user or an audit event
  void services.store.sessions.insert;
  // @ts-expect-error nor open a transaction
  void services.store.transaction;
  // @ts-expect-error a service's transaction cannot delete a zone
  void tx.domains.delete;
  // @ts-expect-error nor add a DNSSEC key
  void tx.dnssecKeys.insert;
  // @ts-expect-error nor change a zone's history
  void tx.changes.insert;
  // @ts-expect-error a change set's builder edits the draft, never the records directly
  void edit.tx.records.deleteMany;
}
