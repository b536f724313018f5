/**
 * `POST /v1/inject/token-error`: the host arms an error on its embedded emulator's token
 * endpoint, and a game's code exchange (the SDK's getToken) gets exactly that error; the
 * refused exchange does not use the code up, so the next try succeeds. A host on another
 * platform says where to arm it instead.
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationArgs, Client } from '../../../../rpc/client/index.js';
import { makeTempDir } from '../../../../rpc/test/support/test-server.js';
import type { Host } from '../../../src/host/compose/host.js';
import { controlCall, DEMO_APP_ID, startTestHost, World } from '../../e2e/support/world.js';

const dirs: string[] = [];
const hosts: Host[] = [];
const clients: Client[] = [];
let world: World | undefined;
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
  for (const host of hosts.splice(0)) await host.close();
  await world?.close();
  world = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A host with its embedded emulator, approving every authorization. */
async function embeddedHost(): Promise<Host> {
  const runtimeDir = await makeTempDir('companion-rt-');
  const dataDir = await makeTempDir('companion-data-');
  dirs.push(runtimeDir, dataDir);
  const host = await startTestHost({ runtimeDir, dataDir, consentPolicy: 'approve', qa: true });
  hosts.push(host);
  return host;
}

async function authorizedCode(host: Host): Promise<{ client: Client; code: string; verifier: string }> {
  const client = new Client({ env: { XDG_RUNTIME_DIR: host.prefix.dir }, logger: { sink: () => undefined } });
  clients.push(client);
  client.setApplicationId(DEMO_APP_ID);
  expect((await client.connect()).successful).toBe(true);
  const verifier = client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setScopes('identify');
  args.setCodeChallenge(verifier.challenge());
  const outcome = await client.authorize(args);
  expect(outcome.result.successful, outcome.result.error).toBe(true);
  return { client, code: outcome.code as string, verifier: verifier.verifier() };
}

describe('POST /v1/inject/token-error', () => {
  it("the next token request gets the chosen error; the code survives it and is redeemed on the next try", async () => {
    const host = await embeddedHost();
    const { client, code, verifier } = await authorizedCode(host);

    const armed = await controlCall(host, 'POST', '/v1/inject/token-error', {
      error: 'temporarily_unavailable',
      error_description: 'QA: the token service is down',
      application_id: DEMO_APP_ID,
    });
    expect(armed.status, armed.text).toBe(200);
    expect(armed.body).toMatchObject({ pending: 1, armed: { error: 'temporarily_unavailable', status: 503, application_id: DEMO_APP_ID, remaining: 1 } });

    const refused = await client.getToken(DEMO_APP_ID, code, verifier, null);
    expect(refused.result.successful).toBe(false);
    expect(refused.result.error).toContain('temporarily_unavailable');
    expect(refused.result.error).toContain('QA: the token service is down');

    const redeemed = await client.getToken(DEMO_APP_ID, code, verifier, null);
    expect(redeemed.result.successful, redeemed.result.error).toBe(true);
  });

  it('an error armed for another application or grant type leaves this exchange alone; clear disarms', async () => {
    const host = await embeddedHost();
    const { client, code, verifier } = await authorizedCode(host);
    expect((await controlCall(host, 'POST', '/v1/inject/token-error', { error: 'invalid_grant', application_id: '999999999999999999' })).status).toBe(200);
    expect((await controlCall(host, 'POST', '/v1/inject/token-error', { error: 'invalid_grant', grant_type: 'refresh_token', count: 2 })).status).toBe(200);

    const redeemed = await client.getToken(DEMO_APP_ID, code, verifier, null);
    expect(redeemed.result.successful, redeemed.result.error).toBe(true);
    const refresh = await client.refreshToken(DEMO_APP_ID, redeemed.token!.refreshToken);
    expect(refresh.result.successful).toBe(false);
    expect(refresh.result.error).toContain('invalid_grant');

    const cleared = await controlCall(host, 'DELETE', '/v1/inject/token-error');
    expect(cleared.body).toEqual({ cleared: 2 });
    const again = await client.refreshToken(DEMO_APP_ID, redeemed.token!.refreshToken);
    expect(again.result.successful, again.result.error).toBe(true);
  });

  it('refuses a bad error code, and a host on another platform says where to arm it', async () => {
    const host = await embeddedHost();
    const bad = await controlCall(host, 'POST', '/v1/inject/token-error', { error: 'Not An Error' });
    expect(bad).toMatchObject({ status: 400, body: { message: 'error: must be an OAuth2 error code like invalid_grant' } });

    world = await World.start();
    const alice = await world.player('alice', { qa: true });
    const elsewhere = await controlCall(alice.host, 'POST', '/v1/inject/token-error', { error: 'invalid_grant' });
    expect(elsewhere).toMatchObject({ status: 409, body: { error: 'not_embedded', message: expect.stringContaining('/_emulator/oauth/token-errors') } });
  });
});
