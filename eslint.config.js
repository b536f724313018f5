import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Layers: rpc/ and platform/ depend on nothing of ours; main/ may use both; electron only in the shell's entry/adapters and the preload entry. */
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
    files: ['rpc/**/*.ts'],
    rules: layerRule(['**/main/**', '**/renderer/**', '**/preload/**', '**/platform/**', 'electron'], 'rpc/ is the protocol core: it imports nothing of ours and no Electron.'),
  },
  {
    files: ['platform/**/*.ts'],
    rules: layerRule(['**/main/**', '**/rpc/**', '**/renderer/**', '**/preload/**', 'electron'], 'platform/ is the platform emulator: it imports nothing of ours and no Electron.'),
  },
  {
    files: ['preload/**/*.ts'],
    rules: layerRule(['**/main/**', '**/rpc/**', '**/platform/**', '**/renderer/**', 'electron'], 'preload/ holds the bridge and its contract: it imports nothing of ours (Electron only in the preload entry).'),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: layerRule(['**/main/**', '**/rpc/**', '**/platform/**', 'electron', 'node:*'], 'renderer/ reaches the host only through the preload contract.'),
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
    rules: layerRule(['**/main/**', '**/rpc/**', '**/platform/**', '**/renderer/**'], 'preload/ holds the bridge and its contract: it imports nothing of ours.'),
  },
);
