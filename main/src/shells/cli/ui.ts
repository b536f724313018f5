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
  --open              Also open the link in the default browser
  --host FILE|URL     The host: its runtime file (host.json), or its control URL
                      (then COMPANION_CONTROL_TOKEN holds the token). Default: the
                      host serving the sockets games would find
  --runtime-dir DIR   Find the host that serves DIR instead
  -h, --help          Show this help
`;

/** Starts the browser and does not wait for it; says so when there is none to start. */
async function openInBrowser(url: string, io: CommandIo): Promise<void> {
  const [command, ...args] = urlOpener(process.platform, url);
  await new Promise<void>((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', () => {
      io.stderr(`companion ui: could not start ${command} to open the link: open it by hand\n`);
      resolve();
    });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
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
