import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPlatform, type PlatformServer } from '../../../../platform/src/index.js';
import type { PresenceUpdateCommand, PresenceUpdateEvent, ReadyEvent } from '../../../../platform/src/wire/index.js';
import { GatewayClient } from '../../../src/host/gateway/gateway-client.js';
import { PlatformApi } from '../../../src/host/gateway/platform-api.js';
import { nextEvent, recordingLogger } from './support/helpers.js';

const JOIN_SECRET = 'join-S3cret-integration';

let platform: PlatformServer | undefined;
let dataDir: string | undefined;
const clients: GatewayClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.stop();
  await platform?.close();
  platform = undefined;
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function signIn(username: string, logger = recordingLogger()) {
  if (platform === undefined) throw new Error('platform not started');
  const api = new PlatformApi({ baseUrl: platform.url });
  const { token, user_id } = await api.login(username);
  api.setToken(token);
  const client = new GatewayClient({ url: await api.gatewayUrl(), token, logger, backoff: { initialMs: 10, maxMs: 100 } });
  clients.push(client);
  const ready = nextEvent<[ReadyEvent]>(client, 'ready');
  client.start();
  return { api, client, token, userId: user_id, ready: (await ready)[0], logger };
}

describe('GatewayClient against the platform emulator', () => {
  it('identifies a seeded user via dev login; READY has the relationships', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'companion-gw-'));
    platform = await startPlatform({ dataDir });

    const alice = await signIn('alice');
    expect(alice.client.status).toBe('ready');
    expect(alice.ready.user.username).toBe('alice');
    expect(alice.ready.user.id).toBe(alice.userId);
    expect(alice.ready.relationships.map((r) => r.user.username).sort()).toEqual(['bob', 'carol', 'dave']);
    expect((await alice.api.me()).id).toBe(alice.userId);
    expect(await alice.api.relationships()).toHaveLength(3);

    // Presence goes out through op 3 and reaches a friend without the secrets.
    const bob = await signIn('bob');
    const presence: PresenceUpdateCommand = {
      since: null,
      status: 'online',
      afk: false,
      activities: [{ name: 'Demo', type: 0, application_id: '1234567890123456789', state: 'Playing', secrets: { join: JOIN_SECRET } }],
    };
    const seen = nextEvent<[string, unknown]>(
      bob.client,
      'dispatch',
      (t, d) => t === 'PRESENCE_UPDATE' && (d as PresenceUpdateEvent).user.id === alice.userId && (d as PresenceUpdateEvent).activities.length > 0,
    );
    expect(alice.client.updatePresence(presence)).toBe(true);
    const [, d] = await seen;
    expect((d as PresenceUpdateEvent).activities[0]?.state).toBe('Playing');
    expect(JSON.stringify(d)).not.toContain(JOIN_SECRET);

    // op 7 from the platform: the client resumes the same session.
    const sessionId = alice.client.sessionId;
    const resumed = nextEvent(alice.client, 'resumed');
    platform.admin.reconnect(alice.userId);
    await resumed;
    expect(alice.client.sessionId).toBe(sessionId);
    expect(alice.client.status).toBe('ready');

    for (const secret of [alice.token, bob.token, JOIN_SECRET]) {
      expect(alice.logger.text().includes(secret) || bob.logger.text().includes(secret)).toBe(false);
    }
  });
});
