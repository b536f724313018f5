import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../src/contract.js';

/**
 * The sandboxed preload as shipped: `preload/vite.config.ts` built (into a temporary folder),
 * then run the way Electron's sandboxed renderer runs a preload: one script wrapped in a
 * function that receives `require` (which only knows `electron`), `module`, `exports` and
 * `process`, in a context with no Node globals.
 */

const CONFIG = path.resolve(import.meta.dirname, '../vite.config.ts');
let outDir: string;
let code: string;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'companion-preload-bundle-'));
  await build({ configFile: CONFIG, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  code = await readFile(path.join(outDir, 'index.cjs'), 'utf8');
}, 60_000);

afterAll(async () => {
  if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
});

interface FakeElectron {
  readonly exposed: Map<string, unknown>;
  readonly invoked: [string, unknown[]][];
  readonly electron: {
    contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
    ipcRenderer: {
      invoke(channel: string, ...args: unknown[]): Promise<unknown>;
      on(channel: string, listener: unknown): unknown;
      removeListener(channel: string, listener: unknown): unknown;
    };
  };
}

function fakeElectron(): FakeElectron {
  const exposed = new Map<string, unknown>();
  const invoked: [string, unknown[]][] = [];
  return {
    exposed,
    invoked,
    electron: {
      contextBridge: { exposeInMainWorld: (key, api) => void exposed.set(key, api) },
      ipcRenderer: {
        invoke: async (channel, ...args) => {
          invoked.push([channel, args]);
          return null;
        },
        on: () => undefined,
        removeListener: () => undefined,
      },
    },
  };
}

/** Runs the bundle as a sandboxed preload; `processType` is what Electron's `process.type` says. */
function runBundle(processType: string | undefined, fake: FakeElectron): { exports: Record<string, unknown>; required: string[] } {
  const required: string[] = [];
  const require = (id: string): unknown => {
    required.push(id);
    if (id === 'electron') return fake.electron;
    throw new Error(`Cannot find module '${id}' (a sandboxed preload may only require electron)`);
  };
  const module = { exports: {} as Record<string, unknown> };
  const process = { type: processType, sandboxed: true };
  // No Node globals in the context: no require, process, Buffer, module.
  const context = vm.createContext({});
  const wrapper = vm.runInContext(`(function (require, module, exports, process) {\n${code}\n})`, context, { filename: 'index.cjs' }) as (
    ...args: unknown[]
  ) => void;
  wrapper(require, module, module.exports, process);
  return { exports: module.exports, required };
}

describe('the preload bundle', () => {
  it('is one CommonJS file that requires only electron', async () => {
    expect(await readdir(outDir)).toEqual(['index.cjs']);
    expect(code).toMatch(/^"use strict";/);
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(code).not.toContain('import(');
    expect(code).not.toContain('import.meta');
    const requires = [...code.matchAll(/\brequire\(\s*(["'`])([^"'`]*)\1\s*\)/g)].map((match) => match[2]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
    // Not minified: the shipped file reads like the source.
    expect(code).toContain('function createPreloadApi(');
  });

  it('exports the API and, as a preload, installs window.companion with only invoke and on', async () => {
    const fake = fakeElectron();
    const { exports, required } = runBundle('renderer', fake);
    expect(Object.keys(exports).sort()).toEqual(['BRIDGE_GLOBAL', 'ChannelRefused', 'createPreloadApi', 'installPreload']);
    expect(required).toEqual(['electron']);
    expect([...fake.exposed.keys()]).toEqual(['companion']);
    const api = fake.exposed.get('companion') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(api)).toBe(true);

    const invoke = api['invoke'] as (channel: string, ...args: unknown[]) => Promise<unknown>;
    await expect(invoke('companion:accept-invite', 'inv-1')).resolves.toBeNull();
    await expect(invoke('companion:shell-exec')).rejects.toThrow(/not a contract invoke channel/);
    expect(fake.invoked).toEqual([['companion:accept-invite', ['inv-1']]]);
    for (const channel of INVOKE_CHANNELS) await invoke(channel);
    expect(fake.invoked.map(([channel]) => channel).slice(1)).toEqual([...INVOKE_CHANNELS]);
  });

  it('installPreload from the bundle exposes the same API; outside a renderer nothing is installed on load', () => {
    const fake = fakeElectron();
    const { exports, required } = runBundle(undefined, fake);
    expect(required).toEqual([]);
    expect(fake.exposed.size).toBe(0);
    (exports['installPreload'] as (electron: unknown) => void)(fake.electron);
    const api = fake.exposed.get(exports['BRIDGE_GLOBAL'] as string) as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
  });
});
