import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The folder rules of eslint.config.js (docs/architecture.md): which layer may import which,
 * run through ESLint's Node API on one import line, as if it were in the file at `file`.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: `${ROOT}eslint.config.js` });
});

async function layerFindings(file: string, specifier: string): Promise<string[]> {
  const code = `import type { Anything } from '${specifier}';\nexport type Used = Anything;\n`;
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  if (result === undefined) throw new Error('no lint result');
  expect(result.messages.filter((message) => message.fatal === true)).toEqual([]);
  return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('layers of main/src', () => {
  it.each([
    ['main/src/base/x.ts', '../host/compose/host.js', /main\/src\/base\/ may not import main\/src\/host\//],
    ['main/src/base/x.ts', '../diagnostics/doctor/doctor-report.js', /may not import main\/src\/diagnostics\//],
    ['main/src/diagnostics/doctor/x.ts', '../../host/presence/presence-service.js', /main\/src\/diagnostics\/ may not import main\/src\/host\//],
    ['main/src/host/presence/x.ts', '../../tools/inject/qa-mode.js', /may not import main\/src\/tools\//],
    ['main/src/host/presence/x.ts', '../compose/host.js', /may not import main\/src\/compose\//],
    ['main/src/host/compose/x.ts', '../../shells/web/web-ui-server.js', /main\/src\/host\/ may not import main\/src\/shells\//],
    ['main/src/host/compose/x.ts', '../../tools/inject/qa-mode.js', /main\/src\/host\/ may not import main\/src\/tools\//],
    ['main/src/tools/scenario/x.ts', '../../shells/cli/control.js', /main\/src\/tools\/ may not import main\/src\/shells\//],
    ['main/src/host/ui-bridge/x.ts', '../../../../renderer/src/App.js', /reaches the UI only through the preload contract/],
  ])('%s may not import %s', async (file, specifier, message) => {
    const found = await layerFindings(file, specifier);
    expect(found.some((text) => message.test(text)), found.join('\n')).toBe(true);
  });

  it.each([
    ['main/src/host/presence/x.ts', '../social/joinable.js'],
    ['main/src/host/compose/x.ts', '../presence/presence-service.js'],
    ['main/src/host/ui-bridge/x.ts', '../../diagnostics/doctor/doctor-report.js'],
    ['main/src/tools/scenario/x.ts', '../../host/presence/to-wire-activity.js'],
    ['main/src/shells/cli/x.ts', '../../tools/scenario/run-scenarios.js'],
    ['main/src/shells/cli/x.ts', '../../host/compose/host.js'],
    ['main/src/diagnostics/doctor/x.ts', '../../base/host-locator.js'],
    ['main/src/host/presence/x.ts', '../../../../common/src/activity-flags.js'],
  ])('%s may import %s', async (file, specifier) => {
    expect(await layerFindings(file, specifier)).toEqual([]);
  });
});

describe('layers between packages', () => {
  it.each([
    ['rpc/src/server/x.ts', '../../../main/src/base/logger.js'],
    ['rpc/src/server/x.ts', '../../../platform/src/index.js'],
    ['platform/src/http/x.ts', '../../../rpc/src/index.js'],
    ['common/src/x.ts', '../../rpc/src/index.js'],
    ['renderer/src/lib/x.ts', '../../../common/src/node/ws-module.js'],
    ['renderer/src/lib/x.ts', '../../../main/src/host/compose/host.js'],
    ['preload/src/contract/x.ts', '../../../main/src/base/logger.js'],
  ])('%s may not import %s', async (file, specifier) => {
    expect(await layerFindings(file, specifier)).not.toEqual([]);
  });

  it.each([
    ['rpc/src/server/x.ts', '../../../common/src/activity-flags.js'],
    ['platform/src/http/x.ts', '../../../common/src/node/close-server.js'],
    ['renderer/src/lib/x.ts', '../../../common/src/recording/recording-scan.js'],
    ['renderer/src/lib/x.ts', '../../../preload/src/contract.js'],
  ])('%s may import %s', async (file, specifier) => {
    expect(await layerFindings(file, specifier)).toEqual([]);
  });
});
