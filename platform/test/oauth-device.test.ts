import { describe, expect, it } from 'vitest';
import { SEED } from '../src/index.js';
import type { DeviceAuthorizationResponse, DeviceVerifyPreview, TokenResponse } from '../src/wire/index.js';
import { api, FakeClock, startTestPlatform } from './support/harness.js';
import { bearer, postForm } from './support/oauth.js';

const APP = SEED.appId;
const DEVICE = '/api/v10/oauth2/device/authorize';
const VERIFY = '/api/v10/oauth2/device/verify';
const TOKEN = '/api/v10/oauth2/token';
const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

type Platform = Awaited<ReturnType<typeof startTestPlatform>>;

async function deviceCodes(platform: Platform, fields: Record<string, string> = { client_id: APP, scope: 'identify openid' }): Promise<DeviceAuthorizationResponse> {
  const response = await postForm<DeviceAuthorizationResponse>(platform, DEVICE, fields);
  expect(response.status).toBe(200);
  return response.body;
}

const poll = (platform: Platform, deviceCode: string, extra: Record<string, string> = {}, basic?: { id: string; secret: string }): ReturnType<typeof postForm<TokenResponse>> =>
  postForm<TokenResponse>(platform, TOKEN, { grant_type: GRANT, device_code: deviceCode, ...(basic === undefined ? { client_id: APP } : {}), ...extra }, basic !== undefined ? { basic } : {});

const verify = (platform: Platform, userToken: string, userCode: string, authorize: boolean): ReturnType<typeof api> =>
  api(platform, 'POST', VERIFY, { token: userToken, body: { user_code: userCode, authorize } });

describe('issue 28 §1 getTokenFromDevice: the emulator\'s device authorization grant (RFC 8628)', () => {
  it('hands out a device code and a short readable user code, and the discovery document names the endpoint', async () => {
    const platform = await startTestPlatform();
    const codes = await deviceCodes(platform);
    expect(codes).toEqual({
      device_code: expect.any(String),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${platform.url}/activate`,
      verification_uri_complete: `${platform.url}/activate?user_code=${codes.user_code}`,
      expires_in: 600,
      interval: 5,
    });
    const discovery = await api<{ device_authorization_endpoint: string; grant_types_supported: string[] }>(platform, 'GET', '/.well-known/openid-configuration');
    expect(discovery.body.device_authorization_endpoint).toBe(`${platform.url}/api/oauth2/device/authorize`);
    expect(discovery.body.grant_types_supported).toContain(GRANT);
    expect(await postForm(platform, DEVICE, { client_id: APP, scope: 'bogus' })).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(await postForm(platform, DEVICE, { client_id: 'nope', scope: 'identify' })).toMatchObject({ status: 400, body: { error: 'invalid_client' } });
  });

  it('pending, then slow_down when polled faster than the interval, then tokens once the signed-in player approves the user code', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const codes = await deviceCodes(platform);
    expect(await poll(platform, codes.device_code)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });
    expect(await poll(platform, codes.device_code)).toMatchObject({ status: 400, body: { error: 'slow_down' } });
    // The interval grew by 5 s: 5 s later is still too early.
    clock.advance(5000);
    expect(await poll(platform, codes.device_code)).toMatchObject({ status: 400, body: { error: 'slow_down' } });
    clock.advance(15_000);
    expect(await poll(platform, codes.device_code)).toMatchObject({ status: 400, body: { error: 'authorization_pending' } });

    const alice = platform.loginToken('alice');
    // Typed loosely: lower case, no dash.
    const typed = codes.user_code.replace('-', '').toLowerCase();
    const preview = await api<DeviceVerifyPreview>(platform, 'GET', `${VERIFY}?user_code=${typed}`, { token: alice });
    expect(preview).toMatchObject({ status: 200, body: { user_code: codes.user_code, application: { id: APP }, scopes: ['identify', 'openid'] } });
    expect(await verify(platform, alice, typed, true)).toMatchObject({ status: 200, body: { approved: true } });
    // A user code is used once.
    expect(await verify(platform, alice, typed, true)).toMatchObject({ status: 404, body: { error: 'invalid_grant' } });

    clock.advance(20_000);
    const ok = await poll(platform, codes.device_code);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String), scope: 'identify openid', id_token: expect.any(String) });
    const me = await bearer<{ user: { username: string } }>(platform, '/api/v10/oauth2/@me', ok.body.access_token);
    expect(me.body.user.username).toBe('alice');
    // The device code is spent.
    clock.advance(20_000);
    expect(await poll(platform, codes.device_code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('the player denies: access_denied; an unknown user code is 404', async () => {
    const platform = await startTestPlatform();
    const codes = await deviceCodes(platform);
    const alice = platform.loginToken('alice');
    expect(await verify(platform, alice, 'BBBB-BBBB', true)).toMatchObject({ status: 404, body: { error: 'invalid_grant' } });
    expect(await verify(platform, alice, codes.user_code, false)).toMatchObject({ status: 200, body: { approved: false } });
    expect(await poll(platform, codes.device_code)).toMatchObject({ status: 400, body: { error: 'access_denied' } });
    expect(await api(platform, 'POST', VERIFY, { body: { user_code: codes.user_code, authorize: true } })).toMatchObject({ status: 401 });
  });

  it('device codes expire: expired_token, and the user code no longer approves', async () => {
    const clock = new FakeClock();
    const platform = await startTestPlatform({ clock });
    const codes = await deviceCodes(platform);
    clock.advance(codes.expires_in * 1000);
    expect(await verify(platform, platform.loginToken('alice'), codes.user_code, true)).toMatchObject({ status: 404 });
    expect(await poll(platform, codes.device_code)).toMatchObject({ status: 400, body: { error: 'expired_token' } });
  });

  it("another application polling a device code gets invalid_grant, even once approved; the owner still gets its tokens", async () => {
    const platform = await startTestPlatform();
    const other = platform.admin.createApp({ name: 'Other Game' });
    const listed = (await api<{ id: string; client_secret: string }[]>(platform, 'GET', '/_emulator/apps', { admin: true })).body.find((a) => a.id === other.id);
    const otherClient = { id: other.id, secret: listed?.client_secret as string };
    const codes = await deviceCodes(platform);
    expect(await poll(platform, codes.device_code, {}, otherClient)).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid "device_code" in request.' } });
    await verify(platform, platform.loginToken('alice'), codes.user_code, true);
    expect(await poll(platform, codes.device_code, {}, otherClient)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await poll(platform, codes.device_code)).status).toBe(200);
  });

  it('verification_uri_complete opens the emulator\'s activate page with the code filled in; approving there as a dev-login user gives the console its tokens', async () => {
    const platform = await startTestPlatform();
    const codes = await deviceCodes(platform);
    const shown = await fetch(codes.verification_uri_complete);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain(`value="${codes.user_code}"`);
    const submit = (fields: Record<string, string>): Promise<Response> =>
      fetch(`${platform.url}/activate`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    expect((await submit({ user_code: codes.user_code, username: 'nobody', decision: 'approve' })).status).toBe(400);
    const done = await submit({ user_code: codes.user_code, username: 'alice', decision: 'approve' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Done');
    expect((await submit({ user_code: codes.user_code, username: 'alice', decision: 'approve' })).status).toBe(404);
    const ok = await poll(platform, codes.device_code);
    expect(ok.status).toBe(200);
    expect((await bearer<{ user: { username: string } }>(platform, '/api/v10/oauth2/@me', ok.body.access_token)).body.user.username).toBe('alice');
  });
});
