import { isatty } from 'node:tty';
import { startWebUi } from '../web/web-ui-server.js';
import { compileFromNowOn } from '../../host/compose/startup-tiering.js';
import { releaseHeapWhenIdle } from '../../host/compose/idle-heap-release.js';
import { activationFromEnv, withoutActivationVars } from '../../diagnostics/systemd/activation.js';
import { startHost, type Host } from '../../host/compose/host.js';
import { isInteractiveTerminal, startTtyPrompt } from './tty-prompt.js';
import { createLogger } from '../../base/logger.js';
import type { CommandIo } from './cli-args.js';
import { parseServeArgs, serveHostOptions } from './serve-options.js';
import { reportSignIn, reportStarted, startFailure } from './serve-report.js';
import { ShutdownOnSignal } from './serve-shutdown.js';
import { takeServeBoundEarly } from './serve-early.js';

export const SERVE_HELP = `Usage: companion serve [options]

Starts the Companion host in plain Node: the local RPC server on the first free
discord-ipc-0..9, in the directory games look in, signed in to the platform
(by default the embedded platform emulator, as its first demo user).

Options:
  --runtime-dir DIR   Put the sockets in DIR instead of the first set of
                      XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP (else /tmp)
  --data-dir DIR      Settings, the cached account and the embedded emulator's
                      state (default: $XDG_CONFIG_HOME/companion, else
                      ~/.config/companion)
  --platform URL      Use this platform (e.g. a standalone emulator started
                      with 'companion platform serve') instead of the embedded one
  --user NAME         Sign in as this platform user through the emulator's dev
                      login (demo users: alice, bob, carol, dave)
  --token-file FILE   Sign in with the token in FILE (or set COMPANION_TOKEN).
                      Tokens are never accepted on the command line
  --platform-tls      Also serve the embedded emulator over TLS (https, wss) on a
                      second port, for a native game (Social SDK) pointed at it;
                      prints its address and how to trust the local CA it uses
  --platform-tls-port N
                      That port (default 0: a free one); implies --platform-tls
  --strict-apps       Unknown application ids fail the handshake with CLOSE
                      4000 "Invalid Client ID" (embedded emulator; by default
                      they are registered on first use)
  --allow-second      Run even if a Companion already serves this directory,
                      on the next free index
  --no-game-detection No process scanning this run: only games that speak RPC
                      show (the Settings switch turns it off for good)
  --snap-socket       Also listen in <runtime dir>/snap.discord/ (Linux; off by
                      default: the directory belongs to a Snap Discord)
  --max-connections-per-program N
                      Open RPC connections one program may hold (default 64,
                      at most 1024 in all); one more is refused with CLOSE 4002
  --consent POLICY    prompt | approve | deny: how new authorization requests
                      (AUTHORIZE) are answered. Default prompt: on this terminal
                      when it is one, else through the control API
  --consent-always-ask
                      Ask even when a remembered grant covers the request
                      (requests with prompt "consent", as the real client does)
  --record FILE       Record every RPC frame (both directions, every connection)
                      and host-side events (consent decisions, gateway dispatches)
                      to FILE, created or truncated (mode 0600). Secrets (tokens,
                      codes, activity secrets) are redacted. Read it with
                      'companion record show FILE', replay it with 'companion replay'
  --record-secrets    Keep the secrets in the recording (with --record). The file
                      then holds working tokens: keep it private
  --qa                QA mode: the control API also serves event and fault
                      injection (/v1/inject/*, what 'companion inject' and
                      scenarios' inject steps use). Off by default: a host
                      without it answers those routes with 404
  -v, --verbose       More log output (repeat for more: -v info, -vv debug,
                      -vvv trace). Default: errors and warnings only
  --log-level LEVEL   error | warn | info | debug | trace
  -h, --help          Show this help
  --version           Show the version

The control API's and the web UI's URLs and tokens are in
<runtime dir>/companion/host.json (mode 0600). On a terminal, the web UI's URL is
printed with its token: open it in a browser. Logs are JSON lines on stderr. Tokens and secrets are never logged, at any
level.
Stop with Ctrl+C (SIGINT), SIGTERM, or on Windows Ctrl+Break or closing the console:
clients get CLOSE 1000 and the socket and the runtime file are removed.
`;

export async function serveCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  // bin/companion.js may have bound the sockets already (serve-early.ts), with these arguments checked.
  const early = takeServeBoundEarly(argv);
  const settings = early?.settings ?? (await parseServeArgs(argv, io));
  if (settings.help) {
    io.stdout(SERVE_HELP);
    return 0;
  }
  const logger = createLogger({ level: settings.level });
  // Signal handlers first: a signal during start-up shuts the host down as soon as it is up.
  const shutdown = early?.shutdown ?? new ShutdownOnSignal();
  // Started by systemd socket activation: serve the sockets its units hold.
  const activation = activationFromEnv(io.env, process.pid);
  const options = serveHostOptions(settings, io, logger);
  let host: Host;
  try {
    host = await startHost({
      ...options,
      env: withoutActivationVars(io.env),
      listen: {
        ...options.listen,
        snapSocket: settings.snapSocket || activation.adopted.some((socket) => socket.kind === 'snap'),
        ...(activation.adopted.length === 0 ? {} : { adoptedSockets: activation.adopted }),
      },
      // The headless host's UI: this front end started over the host's parts.
      ui: { start: startWebUi },
      // Loaded only in QA mode: a product host does not carry the injection code.
      ...(settings.qa ? { qa: (await import('../../tools/inject/qa-mode.js')).qaMode(logger) } : {}),
      ...(early === undefined ? {} : { boundAtStart: early.bound }),
    });
  } catch (error) {
    shutdown.dispose();
    const message = startFailure(error, settings);
    if (message === undefined) throw error;
    io.stderr(message);
    return 1;
  }

  if (activation.ignored.length > 0) io.stderr(`companion serve: ignoring inherited sockets not from Companion's units (fds ${activation.ignored.map((s) => s.fd).join(', ')})\n`);
  reportStarted(host, settings, io, logger);
  // isatty(0) first: process.stdin makes a stream of fd 0, which fails (EBADF) for a pipe under
  // Wine, and only a terminal is wanted here.
  if (settings.consentPolicy === 'prompt' && isatty(0) && isInteractiveTerminal(process.stdin, process.stdout)) {
    const prompt = startTtyPrompt({ broker: host.consent, input: process.stdin, output: process.stdout });
    void host.closed.then(() => prompt.close());
  }
  if (!reportSignIn(host, io)) {
    shutdown.dispose();
    await host.close();
    return 1;
  }
  // Started: what runs from now on is the work the host is for (startup-tiering.ts).
  compileFromNowOn();
  // What start-up and each burst of load leave in the heap goes back once the games are quiet.
  releaseHeapWhenIdle(host, host.closed);
  return shutdown.closeOnSignal(host, logger);
}
