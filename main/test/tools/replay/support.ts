/* eslint-disable @typescript-eslint/no-explicit-any -- the library's internals (rest base URL) are reached on purpose */
import path from 'node:path';
import { Client as XhayperClient } from '@xhayper/discord-rpc';
import { within } from '../../../../rpc/test/compat/helpers.js';
import { DEMO_APP_ID, eventually, joinableActivity, World, type Player, type TestHostOptions } from '../../e2e/support/world.js';

/** The join secret the recorded game sets; it must not appear in a redacted recording. */
export const JOIN_SECRET = joinableActivity()['joinSecret'] as string;

/** A world with alice's host recording to a file, consent approving every request. */
export async function recordingWorld(extra: Partial<TestHostOptions> = {}, secrets = false, strictApps = false): Promise<{ world: World; alice: Player; file: string }> {
  const world = await World.start(undefined, strictApps);
  const file = path.join(await world.tempDir('companion-rec-'), 'session.rec');
  const alice = await world.player('alice', { consentPolicy: 'approve', record: { file, secrets }, ...extra });
  return { world, alice, file };
}

/**
 * Records a session of the real client (playXhayperSession) in a new recordingWorld (`secrets`:
 * kept, not redacted), which goes to `worlds` for the test to close. Alice's host is closed, so
 * the recording is complete.
 */
export async function recordXhayperSession(worlds: World[], secrets = false): Promise<{ file: string; issued: { accessToken: string; code: string } }> {
  const { world, alice, file } = await recordingWorld({}, secrets);
  worlds.push(world);
  const issued = await playXhayperSession(world, alice);
  await alice.host.close();
  return { file, issued };
}

/**
 * A session of the real @xhayper/discord-rpc client against alice's host: login with scopes
 * (AUTHORIZE, the emulator's token endpoint, AUTHENTICATE), SET_ACTIVITY with a join secret,
 * SUBSCRIBE ACTIVITY_JOIN, then it leaves. Resolves with the access token the game received.
 */
export async function playXhayperSession(world: World, alice: Player): Promise<{ accessToken: string; code: string }> {
  const demo = world.platform.admin.apps().find((app) => app.id === DEMO_APP_ID);
  if (demo === undefined) throw new Error('the emulator has no demo app');
  const previous = process.env['XDG_RUNTIME_DIR'];
  process.env['XDG_RUNTIME_DIR'] = alice.runtimeDir;
  // xhayper insists on a client secret for login with scopes; the demo app's is the real one.
  const client = new XhayperClient({ clientId: DEMO_APP_ID, clientSecret: demo.client_secret });
  (client as any).rest.options.api = `${world.platform.url}/api`;
  // Keep what the game was issued, so tests can look for it in the recording.
  let accessToken = '';
  let code = '';
  const rest = (client as any).rest;
  const setToken = rest.setToken.bind(rest);
  rest.setToken = (token: string) => {
    accessToken = token;
    return setToken(token);
  };
  const request = client.request.bind(client);
  (client as any).request = async (...args: Parameters<XhayperClient['request']>) => {
    const reply = await request(...args);
    if (args[0] === 'AUTHORIZE') code = reply.data.code;
    return reply;
  };
  try {
    await within(client.login({ scopes: ['identify', 'rpc'] }), 10_000, 'xhayper login with scopes');
  } finally {
    if (previous === undefined) delete process.env['XDG_RUNTIME_DIR'];
    else process.env['XDG_RUNTIME_DIR'] = previous;
  }
  try {
    await client.user!.setActivity(joinableActivity());
    await client.subscribe('ACTIVITY_JOIN');
  } finally {
    await within(client.destroy(), 2000, 'xhayper destroy()').catch(() => undefined);
  }
  // The game leaves by itself: the recording ends with its close, not the host's shutdown.
  await eventually(() => [...alice.host.server.connections()].length === 0, 'the game to disconnect');
  return { accessToken, code };
}
