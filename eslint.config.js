// ESLint (flat config) with typescript-eslint's parser and one local rule, `zonedeck/layers`, that
// makes the dependency directions of the layering (docs/architecture.md) a lint error instead of a convention:
//   - server/core imports nothing of ours outside core, and no node: module (web/ imports it too);
//   - services use core, the Store interface (store/types and its type files) and each other,
//     never a concrete store, the API, the BFF, the DNS server or the CLI;
//   - api, bff, dns, cli and pdns use services, core and the Store interface, never each other's insides;
//   - web imports only server/core (and types from anywhere), and a web feature never imports
//     another feature: what two features share lives in web/ui or web/lib.
// A second rule, `zonedeck/one-writer`, keeps the store's writer to the change sets and the wiring.
// Test files and test helpers (server/testing) may reach anywhere.
import fs from 'node:fs';
import path from 'node:path';
import tseslint from 'typescript-eslint';

const ROOT = import.meta.dirname;

/** The layer a file belongs to, from its path relative to the repository. */
function layerOf(rel) {
  const p = rel.split(path.sep).join('/');
  let m;
  if ((m = /^server\/(core|services|store|api|bff|dns|cli|pdns|testing|clients)\//.exec(p))) return `server/${m[1]}`;
  if (/^server\/[^/]+$/.test(p)) return 'server/root';
  if ((m = /^web\/features\/([^/]+)\//.exec(p))) return `web/features/${m[1]}`;
  if (/^web\//.test(p)) return 'web';
  return 'other';
}

/** Files at server/ every layer may import: plumbing, not behaviour. */
const INFRA = /^server\/(metrics|log|background|config)(\.ts)?$/;

/** Store files that are its interface (types only), which services may use. */
const STORE_INTERFACE = /^server\/store\/([a-z-]+-)?types\.ts$|^server\/store\/types\/[a-z-]+\.ts$|^server\/store\/schema\.ts$/;

/** What a layer may import (by target layer), besides itself. */
const ALLOWED = {
  'server/core': [],
  'server/services': ['server/core', 'store-interface'],
  'server/store': ['server/core'],
  'server/api': ['server/core', 'server/services', 'store-interface', 'server/root'],
  'server/bff': ['server/core', 'server/services', 'store-interface', 'server/root', 'server/api'],
  'server/pdns': ['server/core', 'server/services', 'store-interface', 'server/root', 'server/api'],
  'server/dns': ['server/core', 'server/services', 'store-interface', 'server/root'],
  'server/cli': ['server/core', 'server/services', 'server/store', 'server/root', 'server/dns', 'server/api'],
};

const isTest = (rel) => /\.test\.tsx?$/.test(rel) || /(^|\/)server\/testing\//.test(rel) || /(^|\/)(e2e|bench|scripts)\//.test(rel);

const layers = {
  meta: { type: 'problem', schema: [], messages: { crossed: '{{from}} may not import {{target}} ({{why}}); see the layering (docs/architecture.md)' } },
  create(context) {
    const file = path.relative(ROOT, context.filename);
    const from = layerOf(file);
    if (isTest(file) || from === 'other') return {};
    const check = (node, source, typeOnly) => {
      if (from === 'server/core' && source.startsWith('node:')) {
        context.report({ node, messageId: 'crossed', data: { from: file, target: source, why: 'core does no I/O: the browser runs it too' } });
        return;
      }
      if (!source.startsWith('.')) return;
      const targetRel = path.relative(ROOT, path.resolve(path.dirname(context.filename), source)).split(path.sep).join('/');
      // `../bff` is the folder's index.ts; `./x` is x.ts (or .tsx).
      const isDir = fs.existsSync(path.join(ROOT, targetRel)) && fs.statSync(path.join(ROOT, targetRel)).isDirectory();
      const target = layerOf(isDir ? `${targetRel}/index.ts` : /\.[a-z]+$/.test(targetRel) ? targetRel : `${targetRel}.ts`);
      if (target === from || target === 'other') return;
      if (from === 'web' || from.startsWith('web/features/')) {
        if (target === 'server/core' || typeOnly) return;
        if (target.startsWith('web/features/') && from.startsWith('web/features/')) {
          context.report({ node, messageId: 'crossed', data: { from: file, target: targetRel, why: 'features do not import each other: move what both need to web/ui or web/lib' } });
        } else if (target.startsWith('server/')) {
          context.report({ node, messageId: 'crossed', data: { from: file, target: targetRel, why: 'the dashboard imports only server/core and types' } });
        }
        return;
      }
      const allowed = ALLOWED[from];
      if (!allowed) return;
      // Process plumbing every layer may use: metrics, logging, background jobs, the typed configuration.
      if (target === 'server/root' && INFRA.test(targetRel)) return;
      // The DNS thread's entry point opens its own store connection, as server/main.ts does for the process.
      if (file === 'server/dns/sync/worker.ts' && /^server\/store\/open$/.test(targetRel.replace(/\.ts$/, ''))) return;
      const storeInterface = target === 'server/store' && STORE_INTERFACE.test(`${targetRel.replace(/\.ts$/, '')}.ts`);
      if (allowed.includes(target) || (storeInterface && allowed.includes('store-interface'))) return;
      // A type is not a dependency at run time, but a concrete store or another layer's insides still are not for services.
      if (typeOnly && from !== 'server/core' && target !== 'server/store') return;
      context.report({ node, messageId: 'crossed', data: { from: file, target: targetRel, why: `${from} uses ${allowed.join(', ') || 'nothing of ours'}` } });
    };
    return {
      ImportDeclaration(node) {
        check(node, node.source.value, node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type')));
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source.value, node.exportKind === 'type');
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === 'type');
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string') check(node, node.source.value, false);
      },
    };
  },
};

/**
 * The one writer: the store's write interface (`Store`, `Repos`) and `openStore` are
 * for the store itself, the change sets (the only zone writer), the services' wiring and the two
 * entry points that open the store and hand it to the services. Every other file gets
 * `ServiceStore` (services) or `ReadStore` (the layers above), where a zone write is a type error.
 */
const WRITER_FILES = new Set(['server/services/changes/change-sets.ts', 'server/services/index.ts', 'server/main.ts', 'server/cli/main.ts']);
/** The change sets' own pieces (open, commit, run …), which change-sets.ts wires together. */
const WRITER_DIR = 'server/services/changes/change-sets/';
const WRITER_NAMES = { 'server/store/types': ['Store', 'Repos'], 'server/store/types/index': ['Store', 'Repos'], 'server/store/types/store': ['Store', 'Repos'], 'server/store/open': ['openStore'], 'server/store/sqlite/sqlite': ['openSqliteStore'], 'server/store/postgres/postgres': ['openPostgresStore'] };

const oneWriter = {
  meta: { type: 'problem', schema: [], messages: { writer: '{{file}} may not take the store\'s writer `{{name}}`: zone writes go through services/changes/change-sets.ts (ServiceStore / ReadStore elsewhere)' } },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    if (isTest(file) || file.startsWith('server/store/') || WRITER_FILES.has(file) || file.startsWith(WRITER_DIR) || !file.startsWith('server/')) return {};
    return {
      ImportDeclaration(node) {
        const source = node.source.value;
        if (!source.startsWith('.')) return;
        const target = path.relative(ROOT, path.resolve(path.dirname(context.filename), source)).split(path.sep).join('/').replace(/\.ts$/, '');
        for (const s of node.specifiers) {
          if (s.type === 'ImportSpecifier' && WRITER_NAMES[target]?.includes(s.imported.name)) context.report({ node: s, messageId: 'writer', data: { file, name: s.imported.name } });
        }
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'build/', 'test-results/', 'playwright-report/', 'data/', '.tmp/', '**/*.d.ts', '**/*.d.mts'] },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaVersion: 'latest', sourceType: 'module', ecmaFeatures: { jsx: true } } },
    plugins: { zonedeck: { rules: { layers, 'one-writer': oneWriter } }, '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'zonedeck/layers': 'error',
      'zonedeck/one-writer': 'error',
      // A few checks that find real mistakes and cost nothing on this code base.
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-duplicate-case': 'error',
      'no-self-assign': 'error',
      'no-unsafe-finally': 'error',
      'no-sparse-arrays': 'error',
      'no-cond-assign': ['error', 'except-parens'],
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', ignoreRestSiblings: true, caughtErrors: 'none', varsIgnorePattern: '^_' }],
    },
  },
);
