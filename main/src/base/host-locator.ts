import { readFile } from 'node:fs/promises';
import { resolveIpcPrefix, type Env } from '../../../rpc/src/index.js';
import { runtimeFilePath, type RuntimeInfo } from './runtime-file.js';

/** Where a running host's control API is, and the token it wants. */
export interface HostEndpoint {
  readonly url: string;
  readonly token: string;
  /** The runtime file it came from, for messages. */
  readonly source: string;
}

export class HostNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostNotFoundError';
  }
}

/**
 * Finds a host for client commands: `--host FILE` (a host.json), `--host URL` (the control
 * URL; the token then comes from COMPANION_CONTROL_TOKEN), or the runtime file of the host
 * that serves the sockets games would find (`--runtime-dir`, else the environment's choice).
 */
export async function locateHost(options: { host?: string | undefined; runtimeDir?: string | undefined; env: Env }): Promise<HostEndpoint> {
  const host = options.host;
  if (host !== undefined && /^https?:\/\//.test(host)) {
    const token = options.env['COMPANION_CONTROL_TOKEN'];
    if (token === undefined || token === '') {
      throw new HostNotFoundError(`--host ${host} is a URL: set COMPANION_CONTROL_TOKEN to its control token (from its host.json), or pass the host.json file instead`);
    }
    return { url: host.replace(/\/+$/, ''), token, source: host };
  }
  const { file, info } = await readHostRuntimeFile({ host, runtimeDir: options.runtimeDir, env: options.env });
  if (info.control === undefined) throw new HostNotFoundError(`${file} has no control API entry (a host still starting, or an older version)`);
  return { url: info.control.url, token: info.control.token, source: file };
}

/**
 * A running host's runtime file: `host` (a host.json path), else the one beside the sockets
 * games would find (`runtimeDir`, else the environment's choice). Client commands that need
 * more than the control API read it (the fake game: the socket; the simulated friend: the
 * embedded emulator). Throws HostNotFoundError naming the file.
 */
export async function readHostRuntimeFile(options: { host?: string | undefined; runtimeDir?: string | undefined; env: Env }): Promise<{ file: string; info: Partial<RuntimeInfo> }> {
  const file = options.host ?? runtimeFilePath(resolveIpcPrefix(options.env, options.runtimeDir).dir);
  try {
    return { file, info: JSON.parse(await readFile(file, 'utf8')) as Partial<RuntimeInfo> };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new HostNotFoundError(`no Companion is running here (${file} does not exist); start one with 'companion serve', or pass --host`);
    throw new HostNotFoundError(`cannot read ${file} (${code ?? 'not JSON'})`);
  }
}
