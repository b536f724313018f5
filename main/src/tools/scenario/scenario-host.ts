import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Env, RpcLogger } from '../../../../rpc/src/index.js';
import type { ConsentPolicy } from '../../host/auth/consent-broker.js';
import { call as controlCall } from '../../base/control-client.js';
import { locateHost, readHostRuntimeFile, type HostEndpoint } from '../../base/host-locator.js';
import type { RuntimeInfo } from '../../base/runtime-file.js';
import type { HostSettings } from './scenario-schema.js';
import { UiBridgeClient } from './ui-bridge-client.js';

/** The host a scenario runs against, however it came to be. */
export interface ScenarioHost {
  /** For messages: `a fresh host (alice)`, `the host of /run/.../host.json`. */
  readonly label: string;
  readonly control: HostEndpoint;
  /** The socket games connect to. */
  readonly socketPath: string;
  readonly platformUrl: string;
  /** The embedded emulator's admin API; null when the host uses another platform. */
  readonly platformAdmin: { readonly url: string; readonly adminToken: string } | null;
  setConsentPolicy(policy: ConsentPolicy): Promise<void>;
  dismissConsent(id: string): Promise<void>;
  /** A fresh host is closed and its temp dirs removed; an existing one gets its policy back. */
  close(): Promise<void>;
}

/** The host could not be started or found: the scenario fails before its first step. */
export class ScenarioHostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioHostError';
  }
}

const QUIET: RpcLogger = { debug() {}, info() {}, warn() {}, error() {} };

async function until(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

/**
 * A new in-process host (`startHost`) with its embedded emulator, in temp dirs that close()
 * removes: signed in as `settings.user` (alice), with the scenario's consent settings, no web
 * UI and no WebSocket transport (scenarios run side by side), quick gateway reconnects, and
 * QA mode on (the inject steps).
 */
export async function startFreshHost(settings: HostSettings, version: string): Promise<ScenarioHost> {
  const [{ startHost }, { qaMode }] = await Promise.all([import('../../host/compose/host.js'), import('../inject/qa-mode.js')]);
  const root = await mkdtemp(path.join(os.tmpdir(), 'companion-scenario-'));
  const removeRoot = (): Promise<void> => rm(root, { recursive: true, force: true });
  let host: Awaited<ReturnType<typeof startHost>>;
  try {
    host = await startHost(
      {
        env: {},
        dataDir: path.join(root, 'data'),
        version,
        logger: QUIET,
        listen: { runtimeDir: path.join(root, 'rt'), rpcWebSocket: false },
        platform: { credentials: { username: settings.user ?? 'alice' }, strictApps: settings.strict_apps === true },
        consent: { policy: settings.consent ?? 'prompt', alwaysAsk: settings.consent_always_ask === true },
        // Scenarios inject events and faults.
        qa: qaMode(),
      },
      // Quick gateway reconnects: a scenario's fault steps wait for them.
      { gateway: { backoff: { initialMs: 50, maxMs: 500 } } },
    );
  } catch (error) {
    await removeRoot();
    throw new ScenarioHostError(`could not start a host: ${error instanceof Error ? error.message : String(error)}`);
  }
  const close = async (): Promise<void> => {
    await host.close();
    await removeRoot();
  };
  if (host.signedIn.kind !== 'signed-in') {
    await close();
    const why = host.signedIn.kind === 'none' ? 'nobody to sign in as' : host.signedIn.message;
    throw new ScenarioHostError(`the host did not sign in as ${settings.user ?? 'alice'}: ${why}`);
  }
  if (!(await until(() => host.session.status.status === 'ready', 5000))) {
    await close();
    throw new ScenarioHostError(`the host's platform connection did not become ready (${host.session.status.detail})`);
  }
  const embedded = host.platform.embedded;
  return {
    label: `a fresh host (${host.signedIn.username})`,
    control: { url: host.control.url, token: host.control.token, source: 'the scenario host' },
    socketPath: host.ipcPath,
    platformUrl: host.platform.url,
    platformAdmin: embedded === null ? null : { url: host.platform.url, adminToken: embedded.adminToken },
    setConsentPolicy: async (policy) => {
      host.consent.policy = policy;
    },
    dismissConsent: (id) => host.control.backend.dismissConsent(id),
    close,
  };
}

export interface ExistingHostOptions {
  /** `--host FILE|URL`. */
  readonly host?: string | undefined;
  /** `--runtime-dir DIR`. */
  readonly runtimeDir?: string | undefined;
  readonly env: Env;
}

/**
 * A running host: its control API from the runtime file (or `--host URL` with
 * COMPANION_CONTROL_TOKEN), its socket and platform from the file (else from GET /v1/status).
 * The consent policy and dismissals go through its web UI bridge (runtime file only); the
 * policy it had is put back by close().
 */
export async function useExistingHost(options: ExistingHostOptions): Promise<ScenarioHost> {
  let control: HostEndpoint;
  let info: Partial<RuntimeInfo> = {};
  try {
    control = await locateHost(options);
    if (options.host === undefined || !/^https?:\/\//.test(options.host)) info = (await readHostRuntimeFile(options)).info;
  } catch (error) {
    throw new ScenarioHostError(error instanceof Error ? error.message : String(error));
  }
  let status: { ipc: { path: string } | null; platform: { url: string } };
  try {
    status = (await controlCall(control, 'GET', '/v1/status')) as typeof status;
  } catch (error) {
    throw new ScenarioHostError(error instanceof Error ? error.message : String(error));
  }
  const socketPath = info.ipc?.path ?? status.ipc?.path;
  if (socketPath === undefined) throw new ScenarioHostError(`the host of ${control.source} does not listen on a socket games can use`);
  const adminToken = info.platform?.adminToken;
  const ui = info.webUi;

  let bridge: UiBridgeClient | undefined;
  let originalPolicy: ConsentPolicy | undefined;
  const bridged = async (): Promise<UiBridgeClient> => {
    if (ui === undefined) {
      throw new Error(`the host of ${control.source} has no web UI entry in its runtime file: consent policies and dismissals need it (or use a fresh host)`);
    }
    bridge ??= await UiBridgeClient.connect(ui);
    return bridge;
  };
  return {
    label: `the host of ${control.source}`,
    control,
    socketPath,
    platformUrl: status.platform.url,
    platformAdmin: adminToken === undefined ? null : { url: info.platform?.url ?? status.platform.url, adminToken },
    setConsentPolicy: async (policy) => {
      const client = await bridged();
      const before = (await client.call('companion:update-settings', [{}])) as { consent_policy: ConsentPolicy };
      originalPolicy ??= before.consent_policy;
      await client.call('companion:update-settings', [{ consent_policy: policy }]);
    },
    dismissConsent: async (id) => {
      await (await bridged()).call('companion:decide-consent', [id, 'dismiss']);
    },
    close: async () => {
      if (bridge === undefined) return;
      if (originalPolicy !== undefined) await bridge.call('companion:update-settings', [{ consent_policy: originalPolicy }]).catch(() => undefined);
      await bridge.close();
    },
  };
}
