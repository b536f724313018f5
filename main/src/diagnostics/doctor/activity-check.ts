import { readFile } from 'node:fs/promises';
import { RpcError, runSetActivity } from '../../../../rpc/src/index.js';
import { lintSetActivityArgs, type ActivityLint } from '../lint/activity-lint.js';

/** `companion doctor --activity FILE`: the wire answer and the lint for one SET_ACTIVITY payload. */
export interface ActivityCheck {
  readonly file: string;
  /** What the real client answers over IPC (the reply's evt and data). */
  readonly wire: { readonly evt: null; readonly data: unknown } | { readonly evt: 'ERROR'; readonly data: { readonly code: number; readonly message: string } };
  /** What it accepts but shows badly, or not at all. */
  readonly lints: readonly ActivityLint[];
  /** Whether asset keys were checked against the application's uploads. */
  readonly assets: { readonly checked: true; readonly applicationId: string; readonly uploaded: number } | { readonly checked: false; readonly reason: string };
}

export class ActivityFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActivityFileError';
  }
}

export interface ActivityCheckOptions {
  readonly clientId?: string | undefined;
  /** The platform to ask for the application's assets (`GET {url}/api/v10/oauth2/applications/{id}/assets`). */
  readonly platformUrl?: string | undefined;
  readonly now?: number;
  readonly fetchAssets?: (platformUrl: string, applicationId: string) => Promise<readonly string[]>;
}

/**
 * The payload in FILE: a whole frame `{cmd: "SET_ACTIVITY", args}`, SET_ACTIVITY args
 * (`{pid, activity}`; without pid the IPC answer is the real client's 4002), or a bare
 * activity (sent with a pid, as libraries do).
 */
export function argsFromPayload(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new ActivityFileError('must hold a JSON object: an activity, {pid, activity}, or a {cmd: "SET_ACTIVITY", args} frame');
  }
  const object = payload as Record<string, unknown>;
  if (object['cmd'] !== undefined) {
    if (object['cmd'] !== 'SET_ACTIVITY') throw new ActivityFileError(`holds a ${String(object['cmd'])} frame, not SET_ACTIVITY`);
    return object['args'];
  }
  if ('activity' in object || 'pid' in object) return object;
  return { pid: 1, activity: object };
}

export async function checkActivityFile(file: string, options: ActivityCheckOptions = {}): Promise<ActivityCheck> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ActivityFileError(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new ActivityFileError(`${file} is not JSON: ${(error as Error).message}`);
  }
  let args: unknown;
  try {
    args = argsFromPayload(payload);
  } catch (error) {
    throw new ActivityFileError(`${file} ${(error as Error).message}`);
  }
  const now = options.now ?? Date.now();
  const applicationId = options.clientId ?? '0';
  let wire: ActivityCheck['wire'];
  try {
    const result = runSetActivity(args, { applicationId, applicationName: `Application ${applicationId}`, transport: 'ipc', now: () => now });
    wire = { evt: null, data: result.activity };
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    wire = { evt: 'ERROR', data: { code: error.code, message: error.message } };
  }
  const assets = await assetKeys(options);
  const lints = lintSetActivityArgs(args, { now, assetKeys: assets.keys });
  return { file, wire, lints, assets: assets.status };
}

async function assetKeys(options: ActivityCheckOptions): Promise<{ keys: ReadonlySet<string> | undefined; status: ActivityCheck['assets'] }> {
  const id = options.clientId;
  if (id === undefined) return { keys: undefined, status: { checked: false, reason: 'no --client-id: asset keys not checked' } };
  if (options.platformUrl === undefined) {
    return { keys: undefined, status: { checked: false, reason: 'no platform to ask (start Companion, or pass --platform URL): asset keys not checked' } };
  }
  try {
    const names = await (options.fetchAssets ?? fetchAssetNames)(options.platformUrl, id);
    return { keys: new Set(names.map((name) => name.toLowerCase())), status: { checked: true, applicationId: id, uploaded: names.length } };
  } catch (error) {
    return { keys: undefined, status: { checked: false, reason: `cannot get the application's assets from ${options.platformUrl}: ${(error as Error).message}` } };
  }
}

/** `GET {platform}/api/v10/oauth2/applications/{id}/assets`: the names of the uploaded assets. */
export async function fetchAssetNames(platformUrl: string, applicationId: string): Promise<string[]> {
  const url = `${platformUrl.replace(/\/+$/, '')}/api/v10/oauth2/applications/${encodeURIComponent(applicationId)}/assets`;
  const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = (await response.json()) as unknown;
  if (!Array.isArray(body)) throw new Error('not a list of assets');
  return body.flatMap((asset) => (typeof asset === 'object' && asset !== null && typeof (asset as { name?: unknown }).name === 'string' ? [(asset as { name: string }).name] : []));
}

/** The check for a terminal. */
export function formatActivityCheck(check: ActivityCheck): string {
  const lines: string[] = [`Activity in ${check.file}`, ''];
  if (check.wire.evt === null) {
    lines.push('Wire answer (what the real client replies): accepted');
    lines.push(`  ${JSON.stringify(check.wire.data)}`);
  } else {
    lines.push(`Wire answer (what the real client replies): ERROR ${check.wire.data.code}`);
    lines.push(`  ${check.wire.data.message}`);
  }
  lines.push('');
  lines.push('Lint (accepted, but shown badly or not at all)');
  if (check.lints.length === 0) lines.push('  nothing');
  for (const lint of check.lints) lines.push(`  ${lint.severity.padEnd(7)} ${lint.field}: ${lint.message} [${lint.code}]`);
  if (!check.assets.checked) lines.push(`  (${check.assets.reason})`);
  return `${lines.join('\n')}\n`;
}
