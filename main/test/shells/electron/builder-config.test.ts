import { readFile } from 'node:fs/promises';
import { Ajv, type ValidateFunction } from 'ajv';
import yaml from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';

/** electron-builder.yml checked against electron-builder's own JSON schema (app-builder-lib/scheme.json). */
const ROOT = new URL('../../../../', import.meta.url);

let validate: ValidateFunction;
let config: Record<string, unknown>;

beforeAll(async () => {
  const schema = JSON.parse(await readFile(new URL('node_modules/app-builder-lib/scheme.json', ROOT), 'utf8')) as object;
  // The schema uses a custom `typeof: function` keyword and union types: not strict.
  const ajv = new Ajv({ strict: false, allowUnionTypes: true, allErrors: true });
  validate = ajv.compile(schema);
  config = yaml.load(await readFile(new URL('electron-builder.yml', ROOT), 'utf8')) as Record<string, unknown>;
});

describe('electron-builder.yml', () => {
  it('is valid for electron-builder', () => {
    const ok = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('sets the fuses of the security checklist', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      grantFileProtocolExtraPrivileges: false,
      enableCookieEncryption: true,
    });
  });

  it('registers the companion scheme, and the Linux desktop entry handles it', () => {
    expect(config.protocols).toEqual([{ name: 'Companion', schemes: ['companion'] }]);
    const linux = config.linux as { target: string[]; category: string; desktop: { entry: Record<string, string> } };
    expect(linux.desktop.entry.MimeType).toBe('x-scheme-handler/companion');
    expect(linux.target).toEqual(['AppImage', 'deb']);
    expect(linux.category).toBe('Game');
  });

  it('packs build output only, in an asar, with the Electron entry (desktop-package.test.ts checks the packed files)', () => {
    expect(config.asar).toBe(true);
    const files = config.files as string[];
    expect(files.filter((pattern) => !pattern.startsWith('!')).every((pattern) => pattern === 'package.json' || pattern.startsWith('out/'))).toBe(true);
    expect(files).toContain('!**/*.map');
    expect(config.extraMetadata).toEqual({ main: 'out/main/src/shells/electron/electron-main.js' });
    expect((config.mac as { target: string }).target).toBe('dmg');
    expect((config.win as { target: string }).target).toBe('nsis');
  });

  it('names the Electron release package.json installs', async () => {
    const pkg = JSON.parse(await readFile(new URL('package.json', ROOT), 'utf8')) as { devDependencies: Record<string, string>; dependencies: Record<string, string> };
    expect(config.electronVersion).toBe(pkg.devDependencies['electron']);
    // electron-builder reads the version from devDependencies and refuses electron in dependencies.
    expect(pkg.dependencies['electron']).toBeUndefined();
  });

  it.each([
    ['a fuse given as a string', { electronFuses: { runAsNode: 'no' } }],
    ['an unknown fuse', { electronFuses: { runAsNodeLoosely: false } }],
    ['a protocol without schemes', { protocols: [{ name: 'Companion' }] }],
    ['an unknown top-level key', { electronFusesTypo: {} }],
  ])('fails validation with %s', (_name, patch) => {
    expect(validate({ ...config, ...patch })).toBe(false);
  });
});
