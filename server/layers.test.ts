/**
 * The layers of DESIGN.md §9 are a lint error, not a convention (issue 34, finding 8): the
 * `zonedeck/layers` rule of eslint.config.js, which `npm test` runs over the whole tree, refuses
 * each crossing below — and lets the allowed directions through.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

async function verdict(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'zonedeck/layers').map((m) => m.message);
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
    ['server/services/x.ts', "import type { Store } from '../store/types';\nimport { Invalid } from '../core/errors';"],
    ['server/dns/x.ts', "import { createChangeSets } from '../services/change-sets';"],
    ['server/services/x.ts', "import { backgroundFailures } from '../metrics';"],
    ['web/features/records/x.ts', "import { recordType } from '../../../server/core/record-types';\nimport type { Services } from '../../../server/services';\nimport { domainKeys } from '../../lib/domain-keys';"],
  ])('lets %s import %s', async (file, code) => {
    expect(await verdict(file, code)).toEqual([]);
  });
});
