// `companion serve` for the image proxy's spec (issue 26 §10, e2e/web/issue-26-images.spec.ts):
// the same host, started with the host's test-only tuning (HostTuning.externalImages) that lets
// its image proxy fetch from the spec's picture server on 127.0.0.1 and trust that server's
// self-signed certificate (the file in E2E_IMAGE_CA). The product's `serve` has no such option.
import { readFileSync } from 'node:fs';
import { startHost } from '../../../out/main/src/host/compose/host.js';
import { createLogger } from '../../../out/main/src/base/logger.js';
import { parseServeArgs, serveHostOptions } from '../../../out/main/src/shells/cli/serve-options.js';
import { reportSignIn, reportStarted } from '../../../out/main/src/shells/cli/serve-report.js';
import { ShutdownOnSignal } from '../../../out/main/src/shells/cli/serve-shutdown.js';
import { startWebUi } from '../../../out/main/src/shells/web/web-ui-server.js';

const io = { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text), env: process.env, version: '0.0.0-e2e' };
const settings = await parseServeArgs(process.argv.slice(2), io);
const logger = createLogger({ level: settings.level });
const shutdown = new ShutdownOnSignal();
const host = await startHost(
  { ...serveHostOptions(settings, io, logger), ui: { start: startWebUi } },
  { externalImages: { allowAddress: (address) => address === '127.0.0.1', ca: readFileSync(process.env['E2E_IMAGE_CA'] ?? '', 'utf8') } },
);
reportStarted(host, settings, io, logger);
if (!reportSignIn(host, io)) process.exit(1);
process.exitCode = await shutdown.closeOnSignal(host, logger);
