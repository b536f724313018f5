import { spawn } from 'node:child_process';
import { call } from '../../base/control-client.js';
import { urlOpener } from '../../base/url-opener.js';
import { parseCommandArgs, UsageError, type CommandIo } from './cli-args.js';
import { withControlHost } from './control.js';

export const UI_HELP = `Usage: companion ui [options]

Prints the address of the running host's UI: a link that opens it once (its
token turns into a session cookie and then no longer works; run companion ui
again for a new link). The host is found as the other client commands find it.

Options:
  --open              Also open the link in the default browser (when none
                      opens, a line on stderr says so, with the link)
  --host FILE|URL     The host: its runtime file (host.json), or its control URL
                      (then COMPANION_CONTROL_TOKEN holds the token). Default: the
                      host serving the sockets games would find
  --runtime-dir DIR   Find the host that serves DIR instead
  -h, --help          Show this help
`;

/**
 * How long the opener has to fail before it counts as having handed the link over: xdg-open
 * exits at once when a desktop takes the link, but runs a plain browser (`$BROWSER`) itself
 * and waits for it.
 */
const OPENER_GRACE_MS = 5000;

/** Why the opener did not open the link, or null when it did (or still runs: a browser it started). */
function runOpener(command: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.unref();
      resolve(null);
    }, OPENER_GRACE_MS);
    const settle = (reason: string | null): void => {
      clearTimeout(timer);
      resolve(reason);
    };
    child.once('error', (error: NodeJS.ErrnoException) => settle(error.code === 'ENOENT' ? `there is no ${command}` : `${command} could not start`));
    child.once('exit', (code, signal) => settle(code === 0 ? null : `${command} found no browser to open it (${code === null ? signal : `exit ${code}`})`));
  });
}

/** Hands the link to the browser; when none opens it, one line says so, with the link to open by hand. */
async function openInBrowser(url: string, io: CommandIo): Promise<void> {
  const [command, ...args] = urlOpener(process.platform, url);
  const failed = await runOpener(command, args);
  if (failed !== null) io.stderr(`companion ui: no browser opened (${failed}); open this link by hand: ${url}\n`);
}

export async function uiCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArgs('ui', argv, { open: { type: 'boolean' }, host: { type: 'string' }, 'runtime-dir': { type: 'string' } });
  if (parsed.help) {
    io.stdout(UI_HELP);
    return 0;
  }
  const { values } = parsed;
  if (values.host !== undefined && values['runtime-dir'] !== undefined) throw new UsageError('give either --host or --runtime-dir, not both');
  return withControlHost('ui', 'ui', values, io, async (host) => {
    const { url } = (await call(host, 'POST', '/v1/ui/links')) as { url: string };
    io.stdout(`${url}\n`);
    if (values.open === true) await openInBrowser(url, io);
    return 0;
  });
}
