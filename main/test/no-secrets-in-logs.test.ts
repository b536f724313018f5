import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, encodeRawFrame, Opcode } from '../../rpc/src/index.js';
import { RawClient } from '../../rpc/test/support/raw-client.js';
import { makeTempDir } from '../../rpc/test/support/test-server.js';
import { createLogger, REDACTED, scrubSecrets } from '../src/logger.js';
import { CliProcess } from './support/cli-process.js';

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
let dir: string | undefined;
afterEach(async () => {
  proc?.kill('SIGKILL');
  if (proc !== undefined) await proc.exited;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('tokens and secrets never reach a log', () => {
  it('at trace level, for every path a secret can take through the host', async () => {
    dir = await makeTempDir('companion-secrets-');
    proc = CliProcess.run(['serve', '--runtime-dir', dir, '--log-level', 'trace']);
    const [, socketPath] = await proc.waitForStdout(/listening on (\S+)\n/);
    const { client } = await RawClient.ready(socketPath!);

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
    for (const [name, secret] of Object.entries(SECRETS)) {
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
