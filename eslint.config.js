import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Layers: common/ (the vocabulary and helpers every package compiles against) depends on nothing
 * of ours; rpc/ and platform/ only on common/; main/ may use all three; Electron: see electronRules
 * below. common/src/node/ is Node-only: never in the
 * renderer or preload.
 */
const layerRule = (forbidden, message) => ({
  'no-restricted-imports': [
    'error',
    {
      // 'electron' is the package (and its subpaths), not any path with an electron/ folder.
      patterns: forbidden.map((group) =>
        typeof group === 'object' ? group : group === 'electron' ? { regex: '^electron(/|$)', message } : { group: [group], message },
      ),
    },
  ],
});

/*
 * Electron is loaded in two places only: main/src/shells/electron/load-electron.ts (the shell's
 * main process) and preload/src/index.ts (the preload entry). Everywhere else it is refused
 * however it is written: import or export from it, `import type`, `typeof import()`,
 * `import x = require()`, import(), require(), createRequire(...)(...). In source (not tests,
 * scripts or bin/), the two places included, a module specifier must also be visible: import()
 * and require() take literals only, and createRequire's result is bound to `require`, called at
 * once with a literal or only used for `.resolve`, so no variable can hide Electron.
 */
const ELECTRON_LOADER = 'main/src/shells/electron/load-electron.ts';
const PRELOAD_ENTRY = 'preload/src/index.ts';
// esquery regexes end at the first slash: \x2F is '/'.
const ELECTRON_SPECIFIER = '/^electron(\\x2F|$)/';
const ELECTRON_MESSAGE = `Electron is loaded only by ${ELECTRON_LOADER} (and ${PRELOAD_ENTRY}); take Electron objects by injection.`;
const electronLoads = [
  ...['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression', 'TSImportType'].map((node) => ({
    selector: `${node}[source.value=${ELECTRON_SPECIFIER}]`,
    message: ELECTRON_MESSAGE,
  })),
  { selector: `TSExternalModuleReference[expression.value=${ELECTRON_SPECIFIER}]`, message: ELECTRON_MESSAGE },
  // require('electron'), anyName('electron'), createRequire(url)('electron'), module.require('electron').
  {
    selector: `CallExpression:matches([callee.type='Identifier'], [callee.type='CallExpression'], [callee.property.name='require'])[arguments.0.value=${ELECTRON_SPECIFIER}]`,
    message: ELECTRON_MESSAGE,
  },
];
const SOURCES = ['{main,rpc,platform,preload,renderer}/src/**/*.{ts,tsx}', 'rpc/client/**/*.ts'];
const DYNAMIC_MESSAGE = 'source loads modules by literal specifier only, so the linter sees what is loaded.';
const hiddenLoads = [
  { selector: "ImportExpression:not([source.type='Literal'])", message: `import() with a computed specifier: ${DYNAMIC_MESSAGE}` },
  { selector: "CallExpression:matches([callee.name='require'], [callee.property.name='require']):not([arguments.0.type='Literal'])", message: `require() with a computed specifier: ${DYNAMIC_MESSAGE}` },
  {
    selector:
      "CallExpression:matches([callee.name='createRequire'], [callee.property.name='createRequire'])" +
      ":not(VariableDeclarator[id.name='require'] > CallExpression.init)" +
      ":not(CallExpression[arguments.0.type='Literal'] > CallExpression.callee)" +
      ":not(MemberExpression[property.name='resolve'] > CallExpression.object)",
    message: `createRequire() is bound to a const named require, called at once with a literal, or used for .resolve: ${DYNAMIC_MESSAGE}`,
  },
  {
    selector: "Identifier[name='require']:matches(VariableDeclarator > .init, AssignmentExpression > .right, CallExpression > .arguments, Property > .value, ReturnStatement > .argument)",
    message: `require passed around under another name: ${DYNAMIC_MESSAGE}`,
  },
];
const electronRules = [
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: [ELECTRON_LOADER, PRELOAD_ENTRY],
    rules: { 'no-restricted-syntax': ['error', ...electronLoads] },
  },
  {
    files: SOURCES,
    ignores: [ELECTRON_LOADER, PRELOAD_ENTRY],
    rules: { 'no-restricted-syntax': ['error', ...electronLoads, ...hiddenLoads] },
  },
  {
    // The two places: each loads Electron with a literal require, and nothing else.
    files: [ELECTRON_LOADER, PRELOAD_ENTRY],
    rules: { 'no-restricted-syntax': ['error', ...hiddenLoads] },
  },
];

/*
 * main/src in layers, lowest first: base (leaf utilities), diagnostics, host (the services;
 * host/compose, the composition root, on top of the other host folders), tools (QA), shells
 * (front ends) and the entry points. A folder imports from its own layer and the layers below,
 * never above (docs/architecture.md). Relative paths cross into a layer through its folder
 * name, so a pattern on that name is enough. Cycles inside a layer: scripts/test/architecture.test.ts.
 */
const MAIN_LAYERS = [
  ['base', ['diagnostics', 'host', 'tools', 'shells']],
  ['diagnostics', ['host', 'tools', 'shells']],
  ['host', ['tools', 'shells']],
  ['tools', ['shells']],
];
const MAIN_BASE_MESSAGE = 'main/ reaches the UI only through the preload contract; Electron is loaded by main/src/shells/electron/load-electron.ts alone.';
function mainLayerRules() {
  const above = (folder, layers, why) => layers.map((layer) => ({ regex: `(^|/)${layer}/`, message: `main/src/${folder}/ may not import main/src/${layer}/: ${why} (docs/architecture.md)` }));
  const rules = MAIN_LAYERS.map(([folder, forbidden]) => ({
    files: [`main/src/${folder}/**/*.ts`],
    rules: layerRule(['**/renderer/**', 'electron', ...above(folder, forbidden, 'it is a layer above')], MAIN_BASE_MESSAGE),
  }));
  // host/compose puts the host together; the services it composes never reach back into it.
  rules.push({
    files: ['main/src/host/**/*.ts'],
    ignores: ['main/src/host/compose/**'],
    rules: layerRule(['**/renderer/**', 'electron', ...above('host/*', ['tools', 'shells', 'compose'], 'compose is the top of host, the others are layers above')], MAIN_BASE_MESSAGE),
  });
  return rules;
}

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'coverage/**', '.bench/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setImmediate: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: layerRule(['**/rpc/**', '**/platform/**', '**/main/**', '**/preload/**', '**/renderer/**', 'electron'], 'common/ is what every package compiles against: it imports nothing of ours and no Electron.'),
  },
  {
    // Outside src/node/, common/ is compiled by the renderer too: no Node modules.
    files: ['common/src/**/*.ts'],
    ignores: ['common/src/node/**'],
    rules: {
      ...layerRule(['**/rpc/**', '**/platform/**', '**/main/**', '**/preload/**', '**/renderer/**', 'electron', 'node:*'], 'common/ outside src/node/ runs in the renderer too: it imports nothing of ours, no Electron and no Node modules.'),
      'no-restricted-globals': ['error', ...['Buffer', 'process', 'setImmediate'].map((name) => ({ name, message: 'common/ outside src/node/ runs in the renderer too: no Node globals.' }))],
    },
  },
  {
    files: ['rpc/**/*.ts'],
    rules: layerRule(['**/main/**', '**/renderer/**', '**/preload/**', '**/platform/**', 'electron'], 'rpc/ is the protocol core: it imports nothing of ours but common/, and no Electron.'),
  },
  {
    files: ['platform/**/*.ts'],
    rules: layerRule(['**/main/**', '**/rpc/**', '**/renderer/**', '**/preload/**', 'electron'], 'platform/ is the platform emulator: it imports nothing of ours but common/, and no Electron.'),
  },
  {
    files: ['preload/**/*.ts'],
    rules: layerRule(['**/main/**', '**/rpc/**', '**/platform/**', '**/renderer/**', '**/common/src/node/**', 'electron'], 'preload/ holds the bridge and its contract: it imports nothing of ours but common/ outside src/node/ (Electron only in the preload entry).'),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: layerRule(['**/main/**', '**/rpc/**', '**/platform/**', '**/common/src/node/**', 'electron', 'node:*'], 'renderer/ reaches the host only through the preload contract; of common/ it uses only what is not under src/node/.'),
  },
  {
    files: ['main/**/*.ts'],
    rules: layerRule(['**/renderer/**', 'electron'], 'main/ reaches the UI only through the preload contract; Electron is loaded by main/src/shells/electron/load-electron.ts alone.'),
  },
  ...mainLayerRules(),
  {
    // The loader checks what it loads against Electron's own types (a type-only import).
    files: [ELECTRON_LOADER],
    rules: layerRule(['**/renderer/**'], 'main/ reaches the UI only through the preload contract.'),
  },
  {
    files: ['preload/src/index.ts'],
    rules: layerRule(['**/main/**', '**/rpc/**', '**/platform/**', '**/renderer/**', '**/common/src/node/**'], 'preload/ holds the bridge and its contract: it imports nothing of ours but common/ outside src/node/.'),
  },
  ...electronRules,
);
