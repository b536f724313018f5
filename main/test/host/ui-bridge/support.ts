/* eslint-disable @typescript-eslint/no-explicit-any -- tests read arbitrary JSON messages */
import { inflateRawSync } from 'node:zlib';
import http from 'node:http';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { appendOutcomes, applyTopic, type HostData, type Snapshot } from '../../../../preload/src/contract.js';
import type { ConversationView, DetectionPatch, DetectionView, DoctorView, RunningProgramView, RecordingView, RelationshipAction, PresencePatch, PresenceSettingsView, PresenceView, InvokeChannel, InvokeChannels, OriginDecisionView, OriginRequestView, PushChannel, SettingsView, VoiceView } from '../../../../preload/src/contract.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import type { DeviceVerifyPreview } from '../../../../platform/src/wire/index.js';
import { BOB, FakeBackend } from '../control/fake-backend.js';
import type { WebUiBackend, WebUiSettings } from '../../../src/shells/web/web-ui-server.js';

export const ORIGIN_REQUEST: OriginRequestView = {
  id: 'OrIg1n-Req_000001',
  origin: 'https://game.example',
  client_id: '1234567890123456789',
  application_name: 'Demo',
  created_at: 1,
  last_attempt_at: 2,
  attempts: 1,
};

export const DOCTOR: DoctorView = {
  generated_at: 1,
  directories: [{ dir: '/run/user/1000', kind: 'prefix', why: 'XDG_RUNTIME_DIR' }],
  sockets: [{ path: '/run/user/1000/discord-ipc-0', state: 'answers', holder: 'companion' }],
  clients: [{ name: 'pypresence', rule: 'first entry', outcome: 'connects', path: '/run/user/1000/discord-ipc-0', reason: null, reaches: 'companion' }],
  flatpak: [],
  findings: [],
};

export class FakeUiBackend extends FakeBackend implements WebUiBackend {
  conversations(): ConversationView[] {
    this.calls.push({ method: 'conversations', args: [] });
    return [{ user_id: '200', messages: [{ id: '700', author_id: '200', content: 'gg', application_id: '42', application_name: 'Demo', at: 1000, edited_at: null }], unread: 1 }];
  }
  readConversation(userId: string, showing: boolean): void {
    this.calls.push({ method: 'readConversation', args: [userId, showing] });
  }
  async sendDm(userId: string, content: string): Promise<{ message_id: string }> {
    this.calls.push({ method: 'sendDm', args: [userId, content] });
    return { message_id: '701' };
  }
  async changeRelationship(userId: string, action: RelationshipAction): Promise<void> {
    this.calls.push({ method: 'changeRelationship', args: [userId, action] });
  }
  async sendFriendRequest(username: string): Promise<{ accepted: boolean }> {
    this.calls.push({ method: 'sendFriendRequest', args: [username] });
    return { accepted: false };
  }
  async previewDeviceCode(userCode: string): Promise<DeviceVerifyPreview> {
    this.calls.push({ method: 'previewDeviceCode', args: [userCode] });
    return { user_code: 'BCDF-GHJK', application: { id: '1234', name: 'Demo', icon: null }, scopes: ['openid'] };
  }
  async decideDeviceCode(userCode: string, authorize: boolean): Promise<{ approved: boolean }> {
    this.calls.push({ method: 'decideDeviceCode', args: [userCode, authorize] });
    return { approved: authorize };
  }
  closeDeviceScreen(screenId: string): void {
    this.calls.push({ method: 'closeDeviceScreen', args: [screenId] });
  }
  deviceScreen(): null {
    return null;
  }
  voiceView: VoiceView = { channel: null, members: [], mute: false, deaf: false, connection: 'DISCONNECTED', audio: false };
  voice(): VoiceView {
    this.calls.push({ method: 'voice', args: [] });
    return this.voiceView;
  }
  setVoice(patch: { readonly mute?: boolean | undefined; readonly deaf?: boolean | undefined }): VoiceView {
    this.calls.push({ method: 'setVoice', args: [patch] });
    this.voiceView = { ...this.voiceView, ...(patch.mute === undefined ? {} : { mute: patch.mute }), ...(patch.deaf === undefined ? {} : { deaf: patch.deaf }) };
    return this.voiceView;
  }
  async dismissConsent(id: string): Promise<void> {
    this.calls.push({ method: 'dismissConsent', args: [id] });
  }
  originRequests(): OriginRequestView[] {
    this.calls.push({ method: 'originRequests', args: [] });
    return [ORIGIN_REQUEST];
  }
  originDecisions(): OriginDecisionView[] {
    this.calls.push({ method: 'originDecisions', args: [] });
    return [];
  }
  async decideOrigin(id: string, decision: 'approve' | 'deny'): Promise<void> {
    this.calls.push({ method: 'decideOrigin', args: [id, decision] });
  }
  async forgetOrigin(id: string): Promise<void> {
    this.calls.push({ method: 'forgetOrigin', args: [id] });
  }
  presence(): PresenceView | null {
    this.calls.push({ method: 'presence', args: [] });
    return null;
  }
  async updatePresence(patch: PresencePatch): Promise<PresenceSettingsView> {
    this.calls.push({ method: 'updatePresence', args: [patch] });
    return { policy: patch.policy ?? 'most-recent', pinned_application_id: null, hide_all: patch.hide_all ?? false, rules: {} };
  }
  recording(): RecordingView | null {
    this.calls.push({ method: 'recording', args: [] });
    return null;
  }
  async setRecording(on: boolean): Promise<RecordingView> {
    this.calls.push({ method: 'setRecording', args: [on] });
    return { recording: on, file: on ? '/data/recordings/r.rec' : null, started_at: null, records: 0, dropped: 0, secrets: false, error: null };
  }
  async doctor(): Promise<DoctorView> {
    this.calls.push({ method: 'doctor', args: [] });
    return DOCTOR;
  }
  detection(): DetectionView {
    return DETECTION;
  }
  async updateDetection(patch: DetectionPatch): Promise<DetectionView> {
    this.calls.push({ method: 'updateDetection', args: [patch] });
    return { ...DETECTION, enabled: patch.enabled ?? DETECTION.enabled };
  }
  async runningPrograms(): Promise<readonly RunningProgramView[]> {
    this.calls.push({ method: 'runningPrograms', args: [] });
    return [{ pid: 42, executable: 'mygame', path: '/opt/mygame/mygame' }];
  }
  async addGame(executable: string, name: string): Promise<DetectionView> {
    this.calls.push({ method: 'addGame', args: [executable, name] });
    return DETECTION;
  }
  async removeGame(id: string): Promise<DetectionView> {
    this.calls.push({ method: 'removeGame', args: [id] });
    return DETECTION;
  }
}

export const DETECTION: DetectionView = { enabled: true, games: [], excluded: [], custom: [], list: { source: 'platform', applications: 1, fetched_at: 1000, last_error: null } };

export class FakeSettings implements WebUiSettings {
  current: SettingsView = { consent_policy: 'prompt', consent_always_ask: false, log_level: 'info', start_at_login: null };
  readonly updates: Partial<SettingsView>[] = [];
  get(): SettingsView {
    return this.current;
  }
  async update(partial: Partial<SettingsView>): Promise<SettingsView> {
    this.updates.push(partial);
    this.current = { ...this.current, ...partial };
    return this.current;
  }
}

export const INDEX_HTML = '<!doctype html><html><head><script type="module" src="./assets/app.js"></script></head><body><div id="root"></div></body></html>';
export const APP_JS = 'console.log("companion ui");';
export const OUTSIDE_SECRET = 'outside-the-renderer-dir-do-not-serve';

/** A fake renderer build: `<base>/renderer/{index.html,assets/app.js}` and a file beside it that must never be served. */
export async function fakeRenderer(): Promise<{ base: string; rendererDir: string; remove(): Promise<void> }> {
  const base = await makeTempDir('companion-webui-');
  const rendererDir = path.join(base, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), INDEX_HTML);
  await writeFile(path.join(rendererDir, 'assets', 'app.js'), APP_JS);
  await writeFile(path.join(rendererDir, 'assets', 'style.css'), 'body { color: black; }');
  await writeFile(path.join(base, 'secret.txt'), OUTSIDE_SECRET);
  return { base, rendererDir, remove: () => rm(base, { recursive: true, force: true }) };
}

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One HTTP request with the path sent exactly as given (fetch would normalise `/../`) and
 * any Host header.
 */
export function rawRequest(port: number, target: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: target, method, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the tokenised URL once and returns the `name=value` cookie the server set. */
export async function sessionCookie(port: number, token: string): Promise<string> {
  const response = await rawRequest(port, `/?token=${token}`);
  const setCookie = response.headers['set-cookie']?.[0];
  if (response.status !== 302 || setCookie === undefined) throw new Error(`no session cookie: ${response.status}`);
  return setCookie.split(';')[0] as string;
}

/** Why a WebSocket upgrade failed: the HTTP status the server answered with. */
export function refusedUpgrade(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      ws.close();
      reject(new Error('the upgrade was accepted'));
    });
    ws.on('error', () => undefined);
  });
}

/** The page side of the bridge, over a real WebSocket. */
export class BridgeClient {
  readonly messages: any[] = [];
  readonly texts: string[] = [];
  /** Messages that came binary (the compressed protocol), inflated into `texts` too. */
  binaryMessages = 0;
  /** The channels this client called. */
  readonly sentChannels = new Set<string>();
  private nextId = 1;
  private readonly waiters = new Set<() => void>();
  readonly closed: Promise<{ code: number }>;

  /** The host's state as this page holds it: the last ready snapshot with the topic and outcome pushes since applied. */
  state: HostData | null = null;
  private readyIds = new Set<number>();

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) this.binaryMessages += 1;
      const text = (isBinary ? inflateRawSync(data as Buffer) : (data as Buffer)).toString('utf8');
      this.texts.push(text);
      const message = JSON.parse(text);
      // The pushes of one turn of the host's loop come as one message: taken apart, as the page does.
      for (const one of 'pushes' in message ? message.pushes : [message]) {
        this.messages.push(one);
        this.apply(one);
      }
      for (const wake of [...this.waiters]) wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve({ code })));
  }

  static async open(port: number, cookie: string, origin: string | null = `http://127.0.0.1:${port}`, protocols: readonly string[] = []): Promise<BridgeClient> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge`, [...protocols], { headers: { Cookie: cookie, ...(origin === null ? {} : { Origin: origin }) } });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    return new BridgeClient(ws);
  }

  get pushes(): any[] {
    return this.messages.filter((message) => 'push' in message);
  }

  pushesOf(channel: PushChannel): any[] {
    return this.pushes.filter((message) => message.push === channel).map((message) => message.payload);
  }

  sendRaw(text: string): void {
    this.ws.send(text);
  }

  private apply(message: any): void {
    if (this.readyIds.delete(message.id) && message.ok === true) {
      const { frames: _frames, ...data } = message.result as Snapshot;
      this.state = data;
    } else if (this.state !== null && message.push === 'companion:topic') {
      this.state = applyTopic(this.state, message.payload);
    } else if (this.state !== null && message.push === 'companion:outcomes') {
      this.state = appendOutcomes(this.state, message.payload);
    }
  }

  /** Resolves with the state once `test` holds for it (checked after every message). */
  async waitForState(test: (state: HostData) => boolean, what: string, timeoutMs = 3000): Promise<HostData> {
    await this.waitFor(() => this.state !== null && test(this.state), what, timeoutMs);
    return this.state as unknown as HostData;
  }

  /** Sends a message with the next id and resolves with the server's reply to it. */
  async request(channel: string, args: unknown[]): Promise<any> {
    const id = this.nextId++;
    if (channel === 'companion:ready') this.readyIds.add(id);
    this.sentChannels.add(channel);
    this.ws.send(JSON.stringify({ id, channel, args }));
    return this.waitFor((message) => message.id === id, `the reply to ${channel}`);
  }

  /** A typed call: the result, or throws the error message. */
  async invoke<C extends InvokeChannel>(channel: C, ...args: InvokeChannels[C]['args']): Promise<InvokeChannels[C]['result']> {
    const reply = await this.request(channel, args);
    if (!reply.ok) throw new Error(reply.error);
    return reply.result;
  }

  async waitFor(test: (message: any) => boolean, what: string, timeoutMs = 3000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(test);
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  close(): void {
    this.ws.close();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Changes the friends list (Bob plays `Game <n>`) and tells the bridge, as the host does. */
export function changeFriends(backend: FakeBackend, n: number): void {
  backend.friends = () => [{ user: BOB, presence: { status: 'online', activities: [{ name: `Game ${n}`, type: 0 }] } }];
  backend.emit({ type: 'friends', data: null });
}
