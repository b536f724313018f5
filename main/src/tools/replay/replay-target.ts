import type { Env } from '../../../../rpc/src/index.js';
import { HostNotFoundError, locateHost, readHostRuntimeFile } from '../../base/host-locator.js';
import type { ReplayTarget } from './replay-runner.js';

/**
 * The host a replay plays against: its IPC socket and its platform (whose token endpoint
 * redeems new authorization codes). `--host FILE` is a runtime file (host.json), `--host URL`
 * the control API's URL (token in COMPANION_CONTROL_TOKEN; its status names the socket and the
 * platform); without it, the runtime file of the host serving the sockets games would find.
 */
export async function locateReplayTarget(options: { host?: string | undefined; runtimeDir?: string | undefined; env: Env }): Promise<ReplayTarget & { source: string }> {
  if (options.host !== undefined && /^https?:\/\//.test(options.host)) return fromControlApi(options);
  const { file, info } = await readHostRuntimeFile(options);
  const ipcPath = info.ipc?.path;
  if (typeof ipcPath !== 'string') throw new HostNotFoundError(`${file} names no IPC socket (a host still starting?)`);
  return { ipcPath, platformUrl: info.platform?.url ?? null, source: file };
}

async function fromControlApi(options: { host?: string | undefined; env: Env }): Promise<ReplayTarget & { source: string }> {
  const endpoint = await locateHost(options);
  let status: { ipc?: { path?: unknown } | null; platform?: { url?: unknown } };
  try {
    const response = await fetch(`${endpoint.url}/v1/status`, { headers: { Authorization: `Bearer ${endpoint.token}` }, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new HostNotFoundError(`the host at ${endpoint.url} answered HTTP ${response.status} for its status${response.status === 401 ? ' (wrong COMPANION_CONTROL_TOKEN?)' : ''}`);
    status = (await response.json()) as typeof status;
  } catch (error) {
    if (error instanceof HostNotFoundError) throw error;
    throw new HostNotFoundError(`the host at ${endpoint.url} does not answer; is it still running?`);
  }
  const ipcPath = status.ipc?.path;
  if (typeof ipcPath !== 'string') throw new HostNotFoundError(`the host at ${endpoint.url} is not listening on IPC`);
  const platformUrl = status.platform?.url;
  return { ipcPath, platformUrl: typeof platformUrl === 'string' ? platformUrl : null, source: endpoint.source };
}
