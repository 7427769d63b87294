// ESLint (flat config) with typescript-eslint's parser and one local rule, `zonedeck/layers`, that
// makes the dependency directions of the layering (docs/architecture.md) a lint error instead of a convention:
//   - server/core imports nothing of ours outside core, and no node: module (web/ imports it too);
//   - services use core and the Store interface (store/types), never a concrete store, the API, the
//     BFF, the DNS server or the CLI; the store uses core;
//   - api, bff, pdns, dns and cli use services, core, the Store interface and server/http (what the
//     HTTP faces share, which itself uses core, services and the Store interface), never each other's insides;
//   - only the composition roots (COMPOSITION_ROOTS) import anything: there is no other exception;
//   - web imports only server/core (and types from anywhere), and a web feature never imports
//     another feature: what two features share lives in web/ui or web/lib.
// Every way of reaching a module counts, a type import too (moduleReferences).
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
  if ((m = /^server\/(core|services|store|http|api|bff|dns|cli|pdns|testing|clients|outbound)\//.exec(p))) return `server/${m[1]}`;
  if (/^server\/[^/]+$/.test(p)) return 'server/root';
  if ((m = /^web\/features\/([^/]+)\//.exec(p))) return `web/features/${m[1]}`;
  if (/^web\//.test(p)) return 'web';
  return 'other';
}

/** Files at server/ every layer may import: plumbing, not behaviour. */
const INFRA = /^server\/(metrics|counters|log|background|config)(\.ts)?$/;

/** Store files that are its interface (types only), which services may use. */
const STORE_INTERFACE = /^server\/store\/([a-z-]+-)?types\.ts$|^server\/store\/types\/[a-z-]+\.ts$|^server\/store\/schema\.ts$/;

/**
 * The composition roots, the only files that may import anything: the process's entry point,
 * the CLI's and the DNS thread's open the store and hand each layer what it uses; app.ts puts
 * the three HTTP faces (API, BFF, PowerDNS API) under one Hono app. There is no other exception.
 */
const COMPOSITION_ROOTS = new Set(['server/main.ts', 'server/app.ts', 'server/cli/main.ts', 'server/dns/sync/worker.ts']);

/** What the faces of the service use: API, BFF, PowerDNS API, DNS server and CLI. */
const FACE = ['server/core', 'server/services', 'store-interface', 'server/http'];

/** What a layer may import (by target layer), besides itself and the plumbing (INFRA). */
const ALLOWED = {
  'server/core': [],
  'server/root': ['server/core'],
  'server/services': ['server/core', 'store-interface'],
  'server/store': ['server/core'],
  'server/http': ['server/core', 'server/services', 'store-interface'],
  'server/api': FACE,
  'server/bff': FACE,
  'server/pdns': FACE,
  'server/dns': FACE,
  'server/cli': FACE,
  // The connections zonedeck opens to the outside (health checks, webhooks): handed to services by the composition roots.
  'server/outbound': ['server/core'],
};

const isTest = (rel) => /\.test\.tsx?$/.test(rel) || /(^|\/)server\/testing\//.test(rel) || /(^|\/)(e2e|bench|scripts)\//.test(rel);

/** The repository path a relative import names (`../store/types`, no extension added). */
const targetOf = (context, source) =>
  path
    .relative(ROOT, path.resolve(path.dirname(context.filename), source))
    .split(path.sep)
    .join('/');

/**
 * Every way a file reaches another module, each handed to `check(node, source, typeOnly, names)`:
 * a named, default or namespace import (`import type * as T` too), a re-export (`export *`,
 * `export * as X`, `export { A }`), `import x = require()`, a dynamic `import()`, and the type
 * forms `import('…').T` and `typeof import('…')`. `names` are the module's names the node takes:
 * null when it takes the whole module (a namespace, `export *`, `import()` without a name).
 */
function moduleReferences(check) {
  const typeImport = (node) => {
    // typescript-eslint 8 names the string `source`; earlier versions wrapped it in `argument`.
    const source = node.source ?? node.argument?.literal;
    if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
    let first = node.qualifier;
    while (first?.type === 'TSQualifiedName') first = first.left;
    check(node, source.value, true, first ? [first.name] : null);
  };
  return {
    ImportDeclaration(node) {
      const typeOnly = node.importKind === 'type' || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
      const whole = node.specifiers.some((s) => s.type === 'ImportNamespaceSpecifier');
      check(node, node.source.value, typeOnly, whole ? null : node.specifiers.map((s) => (s.type === 'ImportSpecifier' ? s.imported.name : 'default')));
    },
    ExportNamedDeclaration(node) {
      if (node.source)
        check(
          node,
          node.source.value,
          node.exportKind === 'type' || node.specifiers.every((s) => s.exportKind === 'type'),
          node.specifiers.map((s) => s.local.name),
        );
    },
    ExportAllDeclaration(node) {
      check(node, node.source.value, node.exportKind === 'type', null);
    },
    TSImportEqualsDeclaration(node) {
      const ref = node.moduleReference;
      if (ref.type === 'TSExternalModuleReference' && ref.expression.type === 'Literal') check(node, ref.expression.value, node.importKind === 'type', null);
    },
    ImportExpression(node) {
      if (node.source.type === 'Literal' && typeof node.source.value === 'string') check(node, node.source.value, false, null);
    },
    TSImportType: typeImport,
  };
}

const layers = {
  meta: { type: 'problem', schema: [], messages: { crossed: '{{from}} may not import {{target}} ({{why}}); see the layering (docs/architecture.md)' } },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    const from = layerOf(file);
    if (isTest(file) || from === 'other' || COMPOSITION_ROOTS.has(file)) return {};
    return moduleReferences((node, source, typeOnly) => {
      if (from === 'server/core' && source.startsWith('node:')) {
        context.report({ node, messageId: 'crossed', data: { from: file, target: source, why: 'core does no I/O: the browser runs it too' } });
        return;
      }
      if (!source.startsWith('.')) return;
      const targetRel = targetOf(context, source);
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
      const storeInterface = target === 'server/store' && STORE_INTERFACE.test(`${targetRel.replace(/\.ts$/, '')}.ts`);
      // A type import follows the same directions: what two layers share lives in core or the store's interface.
      if (allowed.includes(target) || (storeInterface && allowed.includes('store-interface'))) return;
      context.report({ node, messageId: 'crossed', data: { from: file, target: targetRel, why: `${from} uses ${allowed.join(', ') || 'nothing of ours'}` } });
    });
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
/** The modules that hold the writer, and its names in each. */
const WRITER_NAMES = {
  'server/store/types': ['Store', 'Repos'],
  'server/store/types/index': ['Store', 'Repos'],
  'server/store/types/store': ['Store', 'Repos'],
  'server/store/open': ['openStore'],
  'server/store/sqlite/sqlite': ['openSqliteStore'],
  'server/store/postgres/postgres': ['openPostgresStore'],
};

const oneWriter = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      writer: "{{file}} may not take the store's writer `{{name}}`: zone writes go through services/changes/change-sets.ts (ServiceStore / ReadStore elsewhere)",
      whole: "{{file}} may not take the whole of {{target}}, which holds the store's writer ({{names}}): import the names it needs (zone writes go through services/changes/change-sets.ts)",
    },
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    if (isTest(file) || file.startsWith('server/store/') || WRITER_FILES.has(file) || file.startsWith(WRITER_DIR) || !file.startsWith('server/')) return {};
    return moduleReferences((node, source, _typeOnly, names) => {
      if (!source.startsWith('.')) return;
      const target = targetOf(context, source)
        .replace(/\.[cm]?[jt]s$/, '')
        .replace(/\/$/, '');
      const writer = WRITER_NAMES[target];
      if (!writer) return;
      // A namespace, `export *`, `import()` or `typeof import()` holds every name of the module, the writer's too.
      if (names === null) context.report({ node, messageId: 'whole', data: { file, target, names: writer.join(', ') } });
      else for (const name of names.filter((n) => writer.includes(n))) context.report({ node, messageId: 'writer', data: { file, name } });
    });
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
