import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Layers: common/ (the vocabulary and helpers every package compiles against) depends on nothing
 * of ours; rpc/ and platform/ only on common/; main/ may use all three; electron only in the
 * shell's entry/adapters and the preload entry. common/src/node/ is Node-only: never in the
 * renderer or preload.
 */
const layerRule = (forbidden, message) => ({
  'no-restricted-imports': [
    'error',
    {
      // 'electron' is the package (and its subpaths), not any path with an electron/ folder.
      patterns: forbidden.map((group) => (group === 'electron' ? { regex: '^electron(/|$)', message } : { group: [group], message })),
    },
  ],
});

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
    rules: layerRule(['**/renderer/**', 'electron'], 'main/ reaches the UI only through the preload contract; Electron only in main/electron adapters.'),
  },
  {
    // Electron itself only where it is loaded at runtime inside Electron: the shell's entry and
    // its adapters (main), and the preload entry. Everything else takes Electron objects by injection.
    files: ['main/src/shells/electron/*-adapter*.ts', 'main/src/shells/electron/electron-main.ts'],
    rules: layerRule(['**/renderer/**'], 'main/ reaches the UI only through the preload contract.'),
  },
  {
    files: ['preload/src/index.ts'],
    rules: layerRule(['**/main/**', '**/rpc/**', '**/platform/**', '**/renderer/**', '**/common/src/node/**'], 'preload/ holds the bridge and its contract: it imports nothing of ours but common/ outside src/node/.'),
  },
);
