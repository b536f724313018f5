import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { constants as zlibConstants, createInflate } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CertificateStore, SEED, type PlatformServer, type PlatformTlsListener } from '../src/index.js';
import type { Lobby, TokenResponse } from '../src/wire/index.js';
import { makeAuthority, serialBytes } from '../src/tls/certificate-maker.js';
import { GatewayClient, isDispatch, isOp } from './support/gateway-client.js';
import { captureLogger, startTestPlatform, stopTestPlatform, tempDir } from './support/harness.js';

const DAY = 24 * 60 * 60 * 1000;

interface TlsResponse<T> {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: T;
  readonly text: string;
}

/** A request as a native game's HTTP stack makes it: TLS, trusting only `ca` (undefined: the system's store). */
function tlsRequest<T = unknown>(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; ca?: string }): Promise<TlsResponse<T>> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { method: options.method ?? 'GET', headers: options.headers ?? {}, ...(options.ca !== undefined ? { ca: options.ca } : {}) }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = (response.headers['content-type'] ?? '').includes('application/json') && text.length > 0;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: (json ? JSON.parse(text) : undefined) as T, text });
      });
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

function listener(platform: PlatformServer): PlatformTlsListener {
  if (platform.tls === undefined) throw new Error('the emulator has no TLS listener');
  return platform.tls;
}

/** The browser half of `Authorize`: the consent page on the web base, approved as `username`; the code from the redirect. */
async function approveInBrowser(webBase: string, ca: string, authorizeQuery: URLSearchParams, username: string): Promise<string> {
  const page = await tlsRequest(`${webBase}/oauth2/authorize?${authorizeQuery.toString()}`, { ca });
  expect(page.status).toBe(200);
  expect(page.text).toContain('<form');
  const approved = await tlsRequest(`${webBase}/oauth2/authorize?${authorizeQuery.toString()}`, {
    method: 'POST',
    ca,
    // The consent form posts from the page's own origin: https now.
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: webBase },
    body: new URLSearchParams({ decision: 'approve', username }).toString(),
  });
  expect(approved.status).toBe(302);
  const location = new URL(String(approved.headers.location));
  expect(location.searchParams.get('state')).toBe(authorizeQuery.get('state'));
  return location.searchParams.get('code') ?? '';
}

/** `Authorize` + `GetToken` of a public client with PKCE, as the Social SDK does them, against `Client(apiBase, webBase)`. */
async function authorizeAndGetToken(apiBase: string, webBase: string, ca: string, username: string): Promise<TokenResponse> {
  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = 'http://127.0.0.1/callback';
  const authorizeQuery = new URLSearchParams({
    client_id: SEED.appId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid sdk.social_layer',
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const code = await approveInBrowser(webBase, ca, authorizeQuery, username);
  const token = await tlsRequest<TokenResponse>(`${apiBase}/api/v10/oauth2/token`, {
    method: 'POST',
    ca,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri, client_id: SEED.appId }).toString(),
  });
  expect(token.status).toBe(200);
  expect(token.body.token_type).toBe('Bearer');
  return token.body;
}

function json(method: string, accessToken: string, body?: unknown): { method: string; headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = { Authorization: `Bearer ${accessToken}`, 'User-Agent': 'DiscordSDK (native game test)' };
  if (body === undefined) return { method, headers };
  return { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

describe('issue 28 §3: a native game (the Social SDK pointed at the emulator) over https and wss', () => {
  it('does what a native game does, in order, trusting only the local CA: authorize on the web base, token, gateway discovery, IDENTIFY over wss, presence, a lobby', async () => {
    const platform = await startTestPlatform({ tls: {} });
    const tls = listener(platform);
    expect(tls.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(tls.port).not.toBe(platform.port);
    const ca = await readFile(tls.caCertFile, 'utf8');
    const apiBase = tls.url;
    const webBase = tls.url;

    const alice = await authorizeAndGetToken(apiBase, webBase, ca, 'alice');
    const bob = await authorizeAndGetToken(apiBase, webBase, ca, 'bob');

    // Either API base form reaches the API: the site (paths /api/v10/...) or its API (paths /v10/...).
    const me = await tlsRequest<{ id: string }>(`${apiBase}/v10/users/@me`, { ca, ...json('GET', alice.access_token) });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(platform.user('alice')?.id);

    // Gateway discovery over TLS names the wss gateway of this listener; over plain HTTP, the ws one.
    const discovered = await tlsRequest<{ url: string }>(`${apiBase}/api/v10/gateway`, { ca });
    expect(discovered.body.url).toBe(tls.gatewayUrl);
    expect(discovered.body.url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/gateway$/);
    expect(((await (await fetch(`${platform.url}/api/v10/gateway`)).json()) as { url: string }).url).toBe(platform.gatewayUrl);

    const bobSession = await GatewayClient.connect(discovered.body.url, 'v=10&encoding=json', { ca });
    await bobSession.identify(`Bearer ${bob.access_token}`);
    const aliceSession = await GatewayClient.connect(discovered.body.url, 'v=9&encoding=json', { ca });
    const ready = await aliceSession.identify(alice.access_token);
    expect(ready.user.id).toBe(platform.user('alice')?.id);
    expect(ready.resume_gateway_url).toBe(tls.gatewayUrl);

    // Presence (UpdateRichPresence): bob's game sees alice's activity, its application the token's.
    aliceSession.setPresence({ since: null, afk: false, status: 'online', activities: [{ name: 'Native Game', type: 0, state: 'In a match', application_id: SEED.appId }] } as never);
    const presence = await bobSession.next((m) => m.t === 'PRESENCE_UPDATE' && JSON.stringify(m.d).includes('In a match'));
    expect((presence.d as { activities: { application_id?: string }[] }).activities.map((a) => a.application_id)).toEqual([SEED.appId]);

    // A lobby (CreateOrJoinLobby) both join over https; alice's wss session hears bob come in.
    const secret = `native-${randomBytes(4).toString('hex')}`;
    const created = await tlsRequest<Lobby>(`${apiBase}/api/v10/lobbies`, { ca, ...json('PUT', alice.access_token, { secret }) });
    expect(created.status).toBe(200);
    const joined = await tlsRequest<Lobby>(`${apiBase}/api/v10/lobbies`, { ca, ...json('PUT', bob.access_token, { secret }) });
    expect(joined.body.id).toBe(created.body.id);
    const added = await aliceSession.next(isDispatch('LOBBY_MEMBER_ADD'));
    expect(JSON.stringify(added.d)).toContain(platform.user('bob')?.id ?? 'bob');

    aliceSession.close();
    bobSession.close();
  });

  it('refuses a client that does not trust the local CA (https and wss), and serves plain HTTP as before', async () => {
    const platform = await startTestPlatform({ tls: {} });
    const tls = listener(platform);
    const error = await tlsRequest(`${tls.url}/api/v10/gateway`, {}).then(
      () => undefined,
      (failure: NodeJS.ErrnoException) => failure,
    );
    expect(error?.code).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/);
    const ws = new WebSocket(`${tls.gatewayUrl}?v=10&encoding=json`);
    const wsError = await new Promise<NodeJS.ErrnoException>((resolve) => ws.once('error', resolve));
    expect(wsError.code).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY/);
    // Another site's CA cannot stand in: a different data dir's authority does not verify this one.
    const other = await new CertificateStore({ dataDir: await tempDir(), now: Date.now }).credentials();
    await expect(tlsRequest(`${tls.url}/api/v10/gateway`, { ca: other.caCertPem })).rejects.toThrow();
    // The plain listener is untouched (the host keeps using it).
    const plain = await GatewayClient.connect(platform.gatewayUrl);
    expect(plain.messages.some(isOp(10))).toBe(true);
    plain.close();
  });

  it('keeps the private keys in files of mode 0600 and never writes them to a log or the runtime file', async () => {
    const { logger, lines } = captureLogger();
    const dataDir = await tempDir();
    const platform = await startTestPlatform({ dataDir, tls: {}, logger });
    const files = new CertificateStore({ dataDir, now: Date.now }).files;
    if (process.platform !== 'win32') {
      expect((await stat(files.caKey)).mode & 0o777).toBe(0o600);
      expect((await stat(files.serverKey)).mode & 0o777).toBe(0o600);
      expect((await stat(files.dir)).mode & 0o777).toBe(0o700);
    }
    const keyBodies = [await readFile(files.caKey, 'utf8'), await readFile(files.serverKey, 'utf8')].map((pem) => pem.split('\n')[1] ?? 'missing');
    const runtime = await readFile(platform.runtimeFile, 'utf8');
    expect(JSON.parse(runtime)).toMatchObject({ tlsUrl: listener(platform).url, caCertFile: files.caCert });
    const ca = await readFile(files.caCert, 'utf8');
    const session = await GatewayClient.connect(listener(platform).gatewayUrl, undefined, { ca });
    session.close();
    await stopTestPlatform(platform);
    const everything = [...lines, runtime].join('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const body of keyBodies) {
      expect(body.length).toBeGreaterThan(20);
      expect(everything).not.toContain(body);
    }
    expect(everything).not.toContain('PRIVATE KEY');
  });
});

/** A gateway client with `compress=zlib-stream`, as native clients read it: one inflater, a message per frame ending in 00 00 FF FF. */
async function zlibStreamClient(url: string, ca: string): Promise<{ ws: WebSocket; messages: { op: number; t?: string | null; d: unknown }[]; next: (op: number, t?: string) => Promise<unknown> }> {
  const ws = new WebSocket(`${url}?v=10&encoding=json&compress=zlib-stream`, { ca });
  const inflate = createInflate();
  const messages: { op: number; t?: string | null; d: unknown }[] = [];
  const frames: boolean[] = [];
  let out: Buffer[] = [];
  inflate.on('data', (chunk: Buffer) => out.push(chunk));
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    frames.push(isBinary);
    expect(data.subarray(-4)).toEqual(Buffer.from([0x00, 0x00, 0xff, 0xff]));
    inflate.write(data);
    inflate.flush(zlibConstants.Z_SYNC_FLUSH, () => {
      messages.push(JSON.parse(Buffer.concat(out).toString('utf8')) as { op: number; d: unknown });
      out = [];
    });
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const next = async (op: number, t?: string): Promise<unknown> => {
    for (let i = 0; i < 500; i++) {
      const found = messages.find((m) => m.op === op && (t === undefined || m.t === t));
      if (found !== undefined) {
        expect(frames.every(Boolean)).toBe(true);
        return found.d;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no op ${op} ${t ?? ''}; got ${JSON.stringify(messages.map((m) => m.t ?? m.op))}`);
  };
  return { ws, messages, next };
}

describe('issue 28 §3: the gateway transport compression a native client may ask for', () => {
  it('speaks compress=zlib-stream over wss (binary frames of one zlib context) and refuses zstd-stream with 4002 rather than send what the client cannot read', async () => {
    const platform = await startTestPlatform({ tls: {} });
    const tls = listener(platform);
    const ca = await readFile(tls.caCertFile, 'utf8');
    const client = await zlibStreamClient(tls.gatewayUrl, ca);
    expect(await client.next(10)).toMatchObject({ heartbeat_interval: expect.any(Number) });
    client.ws.send(JSON.stringify({ op: 2, d: { token: platform.loginToken('alice'), properties: { os: 'linux', browser: 'native', device: 'native' } } }));
    expect(await client.next(0, 'READY')).toMatchObject({ resume_gateway_url: tls.gatewayUrl });
    client.ws.send(JSON.stringify({ op: 1, d: null }));
    await client.next(11);
    client.ws.close();

    // A close the server decides goes through the same stream, after what was sent before it.
    const refused = await zlibStreamClient(tls.gatewayUrl, ca);
    await refused.next(10);
    const refusedClose = new Promise<number>((resolve) => refused.ws.once('close', (code) => resolve(code)));
    refused.ws.send(JSON.stringify({ op: 2, d: { token: 'not-a-token', properties: { os: 'linux', browser: 'native', device: 'native' } } }));
    expect(await refusedClose).toBe(4004);

    const zstd = new WebSocket(`${tls.gatewayUrl}?v=10&encoding=json&compress=zstd-stream`, { ca });
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => zstd.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    expect(closed).toEqual({ code: 4002, reason: 'compress: only zlib-stream is supported' });
  });
});

describe('issue 28 §3: the local CA and the server certificate are reused across runs and renewed when they expire', () => {
  it('a restart serves the same authority and server certificate', async () => {
    const dataDir = await tempDir();
    const first = await startTestPlatform({ dataDir, tls: {} });
    expect(listener(first).newAuthority).toBe(true);
    const files = new CertificateStore({ dataDir, now: Date.now }).files;
    const before = { ca: await readFile(files.caCert, 'utf8'), server: await readFile(files.serverCert, 'utf8') };
    await stopTestPlatform(first);

    const second = await startTestPlatform({ dataDir, tls: {} });
    expect(listener(second).newAuthority).toBe(false);
    expect(await readFile(files.caCert, 'utf8')).toBe(before.ca);
    expect(await readFile(files.serverCert, 'utf8')).toBe(before.server);
    // A game that trusted the authority at the first run still connects.
    const session = await GatewayClient.connect(listener(second).gatewayUrl, undefined, { ca: before.ca });
    session.close();
  });

  it('makes a new server certificate, signed by the same authority, once the old one expires; a new authority only when it expires', async () => {
    const dataDir = await tempDir();
    let now = Date.UTC(2026, 0, 1);
    const store = new CertificateStore({ dataDir, now: () => now });
    const first = await store.credentials();
    expect([first.newAuthority, first.newServerCertificate]).toEqual([true, true]);

    now += 30 * DAY;
    const reused = await store.credentials();
    expect([reused.newAuthority, reused.newServerCertificate]).toEqual([false, false]);
    expect(reused.certChainPem).toBe(first.certChainPem);

    now = first.serverNotAfter.getTime() + 1000;
    const renewed = await store.credentials();
    expect([renewed.newAuthority, renewed.newServerCertificate]).toEqual([false, true]);
    expect(renewed.caCertPem).toBe(first.caCertPem);
    const server = new X509Certificate(renewed.certChainPem);
    const authority = new X509Certificate(first.caCertPem);
    expect(server.verify(authority.publicKey)).toBe(true);
    expect(Date.parse(server.validTo)).toBeGreaterThan(now);
    expect(server.subjectAltName).toContain('IP Address:127.0.0.1');

    now = Date.parse(authority.validTo) + 1000;
    const newAuthority = await store.credentials();
    expect([newAuthority.newAuthority, newAuthority.newServerCertificate]).toEqual([true, true]);
    expect(newAuthority.caCertPem).not.toBe(first.caCertPem);
  });

  it('gives every certificate a positive serial of 16 bytes in minimal DER, which OpenSSL parses (a leading zero byte was refused as padding, once in 256)', async () => {
    for (let first = 0; first < 256; first += 1) {
      for (const rest of [0x00, 0x7f, 0x80, 0xff]) {
        const random = Buffer.alloc(16, rest);
        random[0] = first;
        const serial = serialBytes(random);
        expect(serial.length).toBe(16);
        expect(serial[0]).toBeGreaterThanOrEqual(0x40);
        expect(serial[0]).toBeLessThan(0x80);
        expect(Buffer.from(serial.subarray(1))).toEqual(random.subarray(1));
      }
    }
    const validity = { notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + DAY) };
    for (let i = 0; i < 8; i += 1) {
      const made = new X509Certificate((await makeAuthority('serial test', validity)).certPem);
      expect(made.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
    }
  });

  it('makes the server certificate again when its key file is damaged', async () => {
    const dataDir = await tempDir();
    const store = new CertificateStore({ dataDir, now: Date.now });
    const first = await store.credentials();
    await writeFile(store.files.serverKey, 'not a key', { mode: 0o600 });
    const again = await store.credentials();
    expect([again.newAuthority, again.newServerCertificate]).toEqual([false, true]);
    expect(again.keyPem).not.toBe('not a key');
    expect(again.caCertPem).toBe(first.caCertPem);
  });
});
