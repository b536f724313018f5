import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeRawFrame, Opcode } from '../../rpc/src/index.js';
import { RawClient } from '../../rpc/test/support/raw-client.js';
import { makeTempDir } from '../../rpc/test/support/test-server.js';
import { createLogger, REDACTED, scrubSecrets } from '../src/base/logger.js';
import { adminApps, CliProcess, devLogin, devLoginToken } from './support/cli-process.js';

const SECRETS = {
  accessToken: 'access-Tk-9f8e7d6c5b4a',
  refreshToken: 'refresh-Tk-1a2b3c4d5e6f',
  joinSecret: 'join-S3cret-77aa',
  spectateSecret: 'spec-S3cret-88bb',
  matchSecret: 'match-S3cret-99cc',
  verifier: 'pkce-Verif-0011',
  garbledToken: 'garbled-Tk-4455',
  clientSecret: 'client-S3cret-6677',
  versionToken: 'version-Tk-8899',
};

let proc: CliProcess | undefined;
const dirs: string[] = [];
afterEach(async () => {
  proc?.kill('SIGKILL');
  if (proc !== undefined) await proc.exited;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await makeTempDir(prefix);
  dirs.push(dir);
  return dir;
}

describe('tokens and secrets never reach a log', () => {
  it('at trace level, for every path a secret can take through the host', async () => {
    const dir = await tempDir('companion-secrets-');
    const config = await tempDir('companion-config-');
    proc = CliProcess.run(['serve', '--runtime-dir', dir, '--log-level', 'trace', '--consent', 'approve'], { XDG_CONFIG_HOME: config });
    const [, socketPath] = await proc.waitForStdout(/listening on (\S+)\n/);
    await proc.waitForStdout(/Signed in as alice\n/);
    // The host's own secrets: the control API token, the embedded emulator's admin token and
    // every user token the emulator holds (alice's is the one the host signed in with).
    const runtime = JSON.parse(await readFile(path.join(dir, 'companion', 'host.json'), 'utf8'));
    const hostSecrets: Record<string, string> = { controlToken: runtime.control.token, adminToken: runtime.platform.adminToken };
    for (const username of ['alice', 'bob', 'carol', 'dave']) hostSecrets[`token of ${username}`] = await devLoginToken(runtime.platform.url, username);
    expect(Object.keys(hostSecrets)).toHaveLength(6); // before the flow below adds its own

    // The game of the demo app: AUTHORIZE may only ask for the connection's own application.
    const { client } = await RawClient.ready(socketPath!, '1234567890123456789');

    // The whole authorization flow, and every value it issues: the code (PKCE), the access,
    // refresh and id tokens, the verifier, and the app's client secret.
    const demo = (await adminApps(runtime.platform.url, runtime.platform.adminToken)).find((app) => app.id === '1234567890123456789')!;
    hostSecrets['client secret'] = demo.client_secret;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    hostSecrets['verifier'] = verifier;
    const authorized = await client.request('AUTHORIZE', { client_id: demo.id, scopes: ['openid', 'identify', 'rpc'], code_challenge: challenge, code_challenge_method: 'S256', nonce: 'n-1' });
    expect(authorized.data.code, JSON.stringify(authorized)).toEqual(expect.any(String));
    hostSecrets['code'] = authorized.data.code;
    const tokenUrl = `${runtime.platform.url}/api/v10/oauth2/token`;
    const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    const tokens = (await (await fetch(tokenUrl, form({ grant_type: 'authorization_code', client_id: demo.id, client_secret: demo.client_secret, code: authorized.data.code, code_verifier: verifier }))).json()) as Record<string, string>;
    expect(tokens.access_token, JSON.stringify(tokens)).toEqual(expect.any(String));
    Object.assign(hostSecrets, { 'access token': tokens.access_token, 'refresh token': tokens.refresh_token, 'id token': tokens.id_token });
    expect((await client.request('AUTHENTICATE', { access_token: tokens.access_token })).data.user.username).toBe('alice');
    const refreshed = (await (await fetch(tokenUrl, form({ grant_type: 'refresh_token', client_id: demo.id, refresh_token: tokens.refresh_token! }))).json()) as Record<string, string>;
    Object.assign(hostSecrets, { 'refreshed access token': refreshed.access_token, 'refreshed refresh token': refreshed.refresh_token });

    await client.request('AUTHENTICATE', { access_token: SECRETS.accessToken });
    await client.request('AUTHORIZE', { client_id: '123456789012345678', scopes: ['identify'], code_verifier: SECRETS.verifier, client_secret: SECRETS.clientSecret });
    await client.request('SET_ACTIVITY', {
      pid: 1,
      activity: {
        state: 'in a match',
        party: { id: 'party-1', size: [1, 4] },
        secrets: { join: SECRETS.joinSecret, spectate: SECRETS.spectateSecret, match: SECRETS.matchSecret },
      },
    });
    // Rejected activity whose error path sees the secrets too.
    await client.request('SET_ACTIVITY', { pid: 1, activity: { secrets: { join: SECRETS.joinSecret, match: SECRETS.joinSecret } } });
    await client.request('SEND_ACTIVITY_JOIN_INVITE', { user_id: '300000000000000003', refresh_token: SECRETS.refreshToken });
    // The joinable activity goes to the platform (op 3 carries the join secret); an invite to bob
    // goes through the HTTP API with alice's token.
    const bob = await devLogin(runtime.platform.url, 'bob');
    await client.request('ACTIVITY_INVITE_USER', { user_id: bob.id });
    // The control API: its token on every call, and a sign-in with bob's token in the body.
    const control = (route: string, body?: unknown) =>
      fetch(`${runtime.control.url}${route}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Authorization: `Bearer ${runtime.control.token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect((await control('/v1/friends')).status).toBe(200);
    expect((await control('/v1/account/login', { token: bob.token })).status).toBe(200);
    expect((await fetch(`${runtime.control.url}/v1/status`, { headers: { Authorization: 'Bearer wrong-token-value-123' } })).status).toBe(401);

    // A second client sends broken JSON that quotes a token: V8's parse error text quotes input.
    const broken = (await RawClient.ready(socketPath!)).client;
    broken.sendRaw(encodeRawFrame(Opcode.Frame, SECRETS.garbledToken));
    const close = await broken.next();
    expect(close.opcode).toBe(Opcode.Close);
    // The CLOSE message goes back to the sender only, and it does quote the bytes.
    expect(close.payload.message).toContain(SECRETS.garbledToken);
    // A third refuses the handshake with a token in it.
    const third = await RawClient.connect(socketPath!);
    third.sendRaw(encodeFrame(Opcode.Handshake, { v: SECRETS.versionToken, client_id: SECRETS.accessToken }));
    await third.closed;

    proc.kill('SIGTERM');
    await proc.exited;
    const output = proc.stdout + proc.stderr;
    // The log really ran at trace level and covered these events...
    expect(proc.stderr).toContain('"msg":"client disconnected"');
    expect(proc.stderr).toContain('"msg":"command refused"');
    expect(proc.stderr).toContain('"msg":"handshake refused"');
    // ...and no secret appears anywhere.
    expect(proc.stderr).toContain('"msg":"platform status"');
    expect(proc.stderr).toContain('"msg":"authorization decided"');
    expect(proc.stderr).toContain('"msg":"client authenticated"');
    for (const [name, secret] of Object.entries({ ...SECRETS, ...hostSecrets })) {
      expect(output.includes(secret), `${name} leaked into the output`).toBe(false);
    }
  });

  it('scrubs secret-named fields at any depth in structured log records', () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        callback();
      },
    });
    const logger = createLogger({ level: 'trace', destination: sink });
    logger.trace(
      { access_token: SECRETS.accessToken, nested: { refresh_token: SECRETS.refreshToken, list: [{ client_secret: SECRETS.clientSecret }] }, code: 4006 },
      'record',
    );
    for (const secret of [SECRETS.accessToken, SECRETS.refreshToken, SECRETS.clientSecret]) expect(text).not.toContain(secret);
    expect(JSON.parse(text)).toMatchObject({ access_token: REDACTED, nested: { refresh_token: REDACTED }, code: 4006 });
    expect(scrubSecrets({ secrets: { join: 'x' }, state: 'visible' })).toEqual({ secrets: REDACTED, state: 'visible' });
  });
});
