import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CliProcess } from '../support/cli-process.js';
import { sessionCookie } from '../host/ui-bridge/support.js';
import { controlGet, type ControlApi } from './control-get.js';

/** Where the soak's traffic goes: every way a game, a UI page or a tool reaches the host. */
export interface SoakTarget {
  readonly ipcPath: string;
  /** The game libraries look here (XDG_RUNTIME_DIR). */
  readonly runtimeDir: string;
  readonly control: ControlApi;
  /** The web UI's port and the session cookie its URL token was exchanged for. */
  readonly webUi: { readonly port: number; readonly cookie: string };
  /** The RPC WebSocket's port, null when 6463-6472 were all taken. */
  readonly rpcWebSocketPort: number | null;
}

export interface SoakHost extends SoakTarget {
  readonly proc: CliProcess;
  readonly pid: number;
  /** Every socket the host listens on (the primary, the Flatpak one). */
  readonly socketPaths: readonly string[];
  readonly runtimeFile: string;
}

interface RuntimeFileView {
  readonly pid: number;
  readonly listeners: readonly { readonly path: string }[];
  readonly control: ControlApi;
  readonly webUi: { readonly url: string; readonly token: string };
}

export interface SoakDirs {
  readonly runtime: string;
  readonly data: string;
  /** XDG_CONFIG_HOME: never the real one. */
  readonly config: string;
}

/**
 * `companion serve` as a player starts it, in temp dirs, with AUTHORIZE approved without a
 * prompt; resolves once it is signed in and its gateway is up. `track` receives the process
 * at once, so it is killed even if the start fails.
 */
export async function launchSoakHost(dirs: SoakDirs, track: (proc: CliProcess) => void): Promise<SoakHost> {
  const proc = CliProcess.run(['serve', '--runtime-dir', dirs.runtime, '--data-dir', dirs.data, '--consent', 'approve'], { XDG_CONFIG_HOME: dirs.config });
  track(proc);
  const [, ipcPath] = await proc.waitForStdout(/listening on (\S+)\n/, 20_000);
  await proc.waitForStdout(/Signed in as \S+\n/, 20_000);
  const runtimeFile = path.join(dirs.runtime, 'companion', 'host.json');
  const info = JSON.parse(await readFile(runtimeFile, 'utf8')) as RuntimeFileView;
  const status = await gatewayReady(info.control);
  const webUiPort = Number(new URL(info.webUi.url).port);
  return {
    proc,
    pid: info.pid,
    ipcPath: ipcPath as string,
    runtimeDir: dirs.runtime,
    socketPaths: info.listeners.map((listener) => listener.path),
    runtimeFile,
    control: info.control,
    webUi: { port: webUiPort, cookie: await sessionCookie(webUiPort, info.webUi.token) },
    rpcWebSocketPort: status.websocket?.port ?? null,
  };
}

interface StatusView {
  readonly gateway: { readonly status: string };
  readonly websocket: { readonly port: number } | null;
}

async function gatewayReady(control: ControlApi, timeoutMs = 15_000): Promise<StatusView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await controlGet(control, '/v1/status');
    const status = body as StatusView;
    if (status.gateway.status === 'ready') return status;
    if (Date.now() > deadline) throw new Error(`the host's gateway is not ready after ${timeoutMs} ms: ${JSON.stringify(status.gateway)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
