import { access } from 'node:fs/promises';
import { readRuntimeFile, tlsFiles } from '../../../../platform/src/index.js';
import { pidExists } from '../../../../common/src/node/pid-exists.js';
import type { CommandIo } from './cli-args.js';
import { defaultPlatformDataDir } from './platform.js';

/** What the doctor says of native games (the Social SDK over TLS) for the default emulator's data dir. */
export interface NativeTlsStatus {
  readonly state: 'served' | 'not-served' | 'not-set-up';
  /** The TLS listener, when the emulator runs with one. */
  readonly url: string | null;
  /** The local CA's certificate, when it exists. */
  readonly caCertFile: string | null;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** Reads the emulator's runtime file and its tls folder (paths only, never a key). */
export async function nativeTlsStatus(env: CommandIo['env']): Promise<NativeTlsStatus> {
  const dataDir = defaultPlatformDataDir(env);
  const running = await readRuntimeFile(dataDir).catch(() => undefined);
  if (running?.tlsUrl !== undefined && running.caCertFile !== undefined && pidExists(running.pid)) {
    return { state: 'served', url: running.tlsUrl, caCertFile: running.caCertFile };
  }
  const caCertFile = tlsFiles(dataDir).caCert;
  return (await exists(caCertFile)) ? { state: 'not-served', url: null, caCertFile } : { state: 'not-set-up', url: null, caCertFile: null };
}

/** The doctor's section for a terminal. */
export function formatNativeTls(status: NativeTlsStatus): string {
  const lines = ['', 'Native games (the Social SDK over TLS)'];
  if (status.state === 'served') {
    lines.push(`  the emulator serves ${status.url}: pass Client("${status.url}", "${status.url}")`);
  } else if (status.state === 'not-served') {
    lines.push("  not served now: start Companion with 'companion serve --platform-tls' (or 'companion platform serve --tls')");
  } else {
    lines.push("  not set up: 'companion serve --platform-tls' serves the emulator over https and wss for a native game");
  }
  if (status.caCertFile !== null) lines.push(`  local CA: ${status.caCertFile} (a game's machine trusts it once: 'companion platform tls' tells how)`);
  return `${lines.join('\n')}\n`;
}
