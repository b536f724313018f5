import { afterEach, describe, expect, it } from 'vitest';
import { Client, DeviceAuthorizationArgs, type DeviceCode } from '../../client/index.js';
import { admin, SEED_APP_ID, startTestPlatform, type TestPlatform } from './support/platform.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.disconnect();
});

/** A game on a "console": no Companion socket, polls shortened (the emulator answers slow_down, which the SDK obeys). */
function consoleGame(platform: TestPlatform): Client {
  const sleep = (ms: number, signal: AbortSignal | undefined): Promise<boolean> =>
    new Promise((resolve) => {
      if (signal?.aborted === true) return resolve(false);
      const timer = setTimeout(() => resolve(true), Math.min(ms, 20));
      signal?.addEventListener('abort', () => (clearTimeout(timer), resolve(false)), { once: true });
    });
  const client = new Client({ platformBase: platform.url, logger: { sink: () => undefined }, connection: { socketPaths: [] }, deviceFlowSleep: sleep });
  clients.push(client);
  return client;
}

function args(scopes = 'identify sdk.social_layer'): DeviceAuthorizationArgs {
  const value = new DeviceAuthorizationArgs();
  value.setClientId(SEED_APP_ID);
  value.setScopes(scopes);
  return value;
}

/** The player enters the code in Companion: the emulator's verify route as `username`. */
async function approve(platform: TestPlatform, userCode: string, username: string, authorize = true): Promise<void> {
  const response = await fetch(`${platform.url}/api/v10/oauth2/device/verify`, {
    method: 'POST',
    headers: { Authorization: platform.loginToken(username), 'Content-Type': 'application/json' },
    body: JSON.stringify({ user_code: userCode, authorize }),
  });
  if (response.status !== 200) throw new Error(`verify failed: ${response.status}`);
}

async function userOf(platform: TestPlatform, accessToken: string): Promise<string> {
  const response = await fetch(`${platform.url}/api/v10/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  return ((await response.json()) as { username: string }).username;
}

describe('issue 28 §1 getTokenFromDevice', () => {
  it('shows the user code, polls until the player approves it, and calls back with the tokens', async () => {
    const platform = await startTestPlatform();
    const game = consoleGame(platform);
    const codes: DeviceCode[] = [];
    game.setDeviceCodeCallback((code) => {
      codes.push(code);
      void approve(platform, code.userCode, 'alice');
    });
    const seen: unknown[] = [];
    const outcome = await game.getTokenFromDevice(args(), (result, access, refresh, type, expiresIn, scopes) => seen.push([result.successful, typeof access, typeof refresh, type, expiresIn, scopes]));
    expect(outcome.result.successful).toBe(true);
    expect(seen).toEqual([[true, 'string', 'string', 'Bearer', 604800, expect.stringContaining('lobbies.write')]]);
    expect(codes).toEqual([{ userCode: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/), verificationUri: `${platform.url}/activate`, verificationUriComplete: expect.stringContaining('user_code='), expiresIn: 600 }]);
    expect(await userOf(platform, outcome.token?.accessToken ?? '')).toBe('alice');
  });

  it('a denial is UserCancelled; missing scopes are a validation error before the network', async () => {
    const platform = await startTestPlatform();
    const game = consoleGame(platform);
    game.setDeviceCodeCallback((code) => void approve(platform, code.userCode, 'alice', false));
    expect((await game.getTokenFromDevice(args())).result).toMatchObject({ successful: false, type: 'UserCancelled' });
    expect((await game.getTokenFromDevice(args(''))).result).toMatchObject({ successful: false, type: 'ValidationError' });
  });
});

describe('issue 28 §1 abortGetTokenFromDevice', () => {
  it('stops the polling: the callback gets Aborted, and the code can no longer give this game tokens', async () => {
    const platform = await startTestPlatform();
    const game = consoleGame(platform);
    game.setDeviceCodeCallback(() => setTimeout(() => game.abortGetTokenFromDevice(), 50));
    const results: string[] = [];
    const outcome = await game.getTokenFromDevice(args(), (result) => results.push(result.type));
    expect(outcome.result.type).toBe('Aborted');
    expect(results).toEqual(['Aborted']);
  });
});

describe('issue 28 §1 getTokenFromDeviceProvisionalMerge', () => {
  it("merges the identity's provisional account into the account that approves the code", async () => {
    const platform = await startTestPlatform();
    const ticket = (await admin<{ token: string }>(platform, 'POST', '/_emulator/external-tokens', { type: 'STEAM_SESSION_TICKET', external_user_id: 'steam-tv', display_name: 'Couch' })).token;
    const game = consoleGame(platform);
    expect((await game.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket)).result.successful).toBe(true);
    game.setDeviceCodeCallback((code) => void approve(platform, code.userCode, 'alice'));
    const merged = await game.getTokenFromDeviceProvisionalMerge(args(), 'STEAM_SESSION_TICKET', ticket);
    expect(merged.result.successful).toBe(true);
    expect(await userOf(platform, merged.token?.accessToken ?? '')).toBe('alice');
    // The identity is linked now: no provisional account for it any more.
    expect((await game.getProvisionalToken(SEED_APP_ID, 'STEAM_SESSION_TICKET', ticket)).result).toMatchObject({ successful: false, errorCode: 530010 });
  });
});

describe('issue 28 §1 openAuthorizeDeviceScreen / closeAuthorizeDeviceScreen', () => {
  it('validate their arguments before asking Companion', async () => {
    const platform = await startTestPlatform();
    const game = consoleGame(platform);
    expect((await game.openAuthorizeDeviceScreen(SEED_APP_ID, '')).type).toBe('ValidationError');
  });
});
