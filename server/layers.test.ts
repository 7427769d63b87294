/**
 * The layers of the layering (docs/architecture.md) are a lint error, not a convention: the
 * `zonedeck/layers` rule of eslint.config.js, which `npm test` runs over the whole tree, refuses
 * each crossing below, however the module is reached, and lets the allowed directions through;
 * `zonedeck/one-writer` refuses the store's writer outside the change sets and the wiring.
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
    // No layer has an exception: the BFF and the PowerDNS API share http/, not the API's insides.
    ['server/bff/x.ts', "import { publicApi } from '../api';", /server\/bff uses/],
    ['server/pdns/x.ts', "import { errorBody } from '../api/errors';", /server\/pdns uses/],
    ['server/http/x.ts', "import { bffApp } from '../bff';", /server\/http uses/],
    ['server/dns/wire/x.ts', "import { openSqliteStore } from '../../store/sqlite/sqlite';", /server\/dns uses/],
    ['server/log.ts', "import { servicesFor } from './services';", /server\/root uses/],
    // The CLI's commands get what its composition root hands them, never the DNS server's or the store's insides.
    ['server/cli/handlers.ts', "import { transferZone } from '../dns/transfer/axfr-client';", /server\/cli uses/],
    ['server/cli/backup.ts', "import { backupSqlite } from '../store/sqlite/sqlite-backup';", /server\/cli uses/],
    ['server/cli/restore.ts', "import { MIGRATIONS } from '../store/migrate';", /server\/cli uses/],
    // However the module is reached: a type, a namespace, a re-export, require, import() or import('…').T.
    ['server/services/x.ts', "import type { TransferSigner } from '../dns/transfer/axfr-client';", /server\/services uses/],
    ['server/cli/x.ts', "import type { SecretBox } from '../store/secret-box';", /server\/cli uses/],
    ['server/services/x.ts', "import * as api from '../api';", /server\/services uses/],
    ['server/services/x.ts', "import type * as dns from '../dns/server';", /server\/services uses/],
    ['server/services/x.ts', "export * from '../api';", /server\/services uses/],
    ['server/services/x.ts', "export * as api from '../api';", /server\/services uses/],
    ['server/services/x.ts', "export { publicApi } from '../api';", /server\/services uses/],
    ['server/services/x.ts', "export type { BffOptions } from '../bff';", /server\/services uses/],
    ['server/services/x.ts', "import api = require('../api');", /server\/services uses/],
    ['server/services/x.ts', "const api = await import('../api');", /server\/services uses/],
    ['server/services/x.ts', "type Api = typeof import('../api');", /server\/services uses/],
    ['server/services/x.ts', "type Store = import('../store/sqlite/sqlite').SqliteStore;", /server\/services uses/],
  ])('refuses %s importing %s', async (file, code, message) => {
    const found = await verdict(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it.each([
    ['server/services/x.ts', "import type { ServiceStore } from '../store/types';\nimport { Invalid } from '../core/errors';"],
    ['server/dns/x.ts', "import { createChangeSets } from '../services/change-sets';"],
    ['server/services/x.ts', "import { backgroundFailures } from '../metrics';"],
    [
      'web/features/records/x.ts',
      "import { recordType } from '../../../server/core/record-types';\nimport type { Services } from '../../../server/services';\nimport { domainKeys } from '../../lib/domain-keys';",
    ],
    ['server/bff/x.ts', "import { clientAddress } from '../http/client-address';\nimport type { ReadStore } from '../store/types';\nimport { loadConfig } from '../config';"],
    ['server/cli/x.ts', "import type { DatabaseFiles } from '../store/types';\nimport type * as rules from '../core/domain-name';\nexport * from '../services/identity/audit';"],
    ['server/services/x.ts', "type Row = import('../store/types').UserRow;\nconst names = await import('../core/domain-name');"],
    // The composition roots open the store and wire the layers: they alone may import anything.
    ['server/main.ts', "import { startDnsThread } from './dns/sync/thread';\nimport { openStore } from './store/open';"],
    ['server/app.ts', "import { publicApi } from './api';\nimport { bffApp } from './bff';\nimport { pdnsApi } from './pdns';"],
    ['server/cli/main.ts', "import { transferZone } from '../dns/transfer/axfr-client';\nimport { sqliteFiles } from '../store/sqlite/sqlite-backup';"],
    ['server/dns/sync/worker.ts', "import { openReadStore } from '../../store/open';"],
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
    ['server/api/x.ts', "import type { Store as Writer } from '../store/types/index';"],
    ['server/services/zones/x.ts', "export type { Store } from '../../store/types';"],
    ['server/services/zones/x.ts', "type S = import('../../store/types').Store;"],
    ['server/services/zones/x.ts', "type D = import('../../store/types/store').Repos['domains'];"],
    ['server/services/zones/x.ts', "type O = typeof import('../../store/open').openStore;"],
  ])('refuses %s taking the writer: %s', async (file, code) => {
    const found = await verdict(file, code, 'zonedeck/one-writer');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/zone writes go through services\/changes\/change-sets.ts/);
  });

  it.each([
    ['server/api/x.ts', "import type * as T from '../store/types';\nexport type S = T.Store;"],
    ['server/api/x.ts', "import * as open from '../store/open';"],
    ['server/services/zones/x.ts', "export * from '../../store/types';"],
    ['server/services/zones/x.ts', "export * as types from '../../store/types/store';"],
    ['server/services/zones/x.ts', "const store = await import('../../store/open');"],
    ['server/services/zones/x.ts', "type O = typeof import('../../store/open');"],
    ['server/api/x.ts', "import open = require('../store/open');"],
  ])('refuses %s taking the whole of a module that holds the writer: %s', async (file, code) => {
    const found = await verdict(file, code, 'zonedeck/one-writer');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/holds the store's writer/);
  });

  it.each([
    ['server/services/changes/change-sets.ts', "import type { Repos, Store } from '../../store/types';"],
    ['server/services/changes/change-sets/commit.ts', "import type { Repos } from '../../../store/types';"],
    ['server/main.ts', "import { openStore } from './store/open';"],
    ['server/services/zones/zones.ts', "import type { ReadRepos, ServiceStore } from '../../store/types';"],
    ['server/api/x.ts', "import type { ReadStore } from '../store/types';"],
    ['server/api/x.ts', "type R = import('../store/types').ReadStore;\nexport type { ReadRepos } from '../store/types';\nimport * as core from '../core/errors';"],
    ['server/services/changes/change-sets.ts', "import type * as T from '../../store/types';"],
    ['server/cli/main.ts', "import * as open from '../store/open';"],
    ['server/dns/sync/worker.ts', "import { openReadStore } from '../../store/open';"],
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
