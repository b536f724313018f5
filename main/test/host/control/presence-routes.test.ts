import { afterEach, describe, expect, it } from 'vitest';
import { startControlServer, type ControlServer } from '../../../src/host/control/control-server.js';
import type { PresenceControl } from '../../../src/host/control/presence-routes.js';
import { DEFAULT_PRESENCE_SETTINGS, type PresenceSettings } from '../../../src/host/presence/presence-privacy.js';
import { applyPatch, type PresenceSettingsPatch, type PresenceView } from '../../../src/host/presence/presence-service.js';
import { parsePresencePatch } from '../../../src/host/control/presence-schemas.js';
import { presencePatchFromOptions, parseRuleOption } from '../../../src/shells/cli/control-presence.js';
import { UsageError } from '../../../src/shells/cli/cli-args.js';
import { FakeBackend } from './fake-backend.js';

const TOKEN = 'control-Tk-0123456789abcdef';
const APP = '1234567890123456789';

class FakePresence implements PresenceControl {
  settings: PresenceSettings = DEFAULT_PRESENCE_SETTINGS;
  readonly patches: PresenceSettingsPatch[] = [];
  failWith: unknown;

  view(): PresenceView {
    return {
      ...this.settings,
      games: [{ connection_id: 'ipc-1', application_id: APP, application_name: 'Demo', shown: true, outcome: null, friends_see: null }],
      recent_outcomes: [],
      announced_applications: [],
    };
  }

  async updateSettings(patch: PresenceSettingsPatch): Promise<PresenceSettings> {
    this.patches.push(patch);
    if (this.failWith !== undefined) throw this.failWith;
    this.settings = applyPatch(this.settings, patch);
    return this.settings;
  }
}

let server: ControlServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<FakePresence> {
  const presence = new FakePresence();
  server = await startControlServer({ backend: new FakeBackend(), token: TOKEN, presence });
  return presence;
}

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server?.url ?? ''}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('presence control routes', () => {
  it('GET /v1/presence serves the view', async () => {
    await start();
    const { status, body } = await call('GET', '/v1/presence');
    expect(status).toBe(200);
    expect(body).toMatchObject({ policy: 'most-recent', pinned_application_id: null, hide_all: false, rules: {}, games: [{ connection_id: 'ipc-1', shown: true }], recent_outcomes: [] });
  });

  it('PATCH /v1/presence/settings applies a valid patch and answers the settings', async () => {
    const presence = await start();
    const { status, body } = await call('PATCH', '/v1/presence/settings', { policy: 'first-connected', pinned_application_id: APP, hide_all: true, rules: { [APP]: { mode: 'redact', fields: ['state'] } } });
    expect(status).toBe(200);
    expect(body).toEqual({ policy: 'first-connected', pinned_application_id: APP, hide_all: true, rules: { [APP]: { mode: 'redact', fields: ['state'] } } });
    expect(presence.patches).toHaveLength(1);
  });

  it.each([
    [{ hideAll: true }, 'hideAll'],
    [{ policy: 'loudest' }, 'policy'],
    [{ pinned_application_id: 'abc' }, 'pinned_application_id'],
    [{ hide_all: 'on' }, 'hide_all'],
    [{ rules: { 'not-an-id': { mode: 'hide' } } }, 'rules.not-an-id'],
    [{ rules: { [APP]: { mode: 'blur' } } }, `rules.${APP}.mode`],
    [{ rules: { [APP]: { mode: 'redact', fields: ['secrets'] } } }, `rules.${APP}.fields.0`],
    [{ rules: { [APP]: { mode: 'redact', fields: [] } } }, `rules.${APP}.fields`],
    [{ rules: [] }, 'rules'],
    [[1], 'body'],
    ['{not json', 'body'],
  ])('refuses %j with a 400 naming %s', async (input, field) => {
    const presence = await start();
    const { status, body } = await call('PATCH', '/v1/presence/settings', input);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_request');
    expect(String(body.message).startsWith(`${field}: `)).toBe(true);
    expect(presence.patches).toHaveLength(0);
  });

  it('a settings file that cannot be written is a 500 that says the change holds until the host stops', async () => {
    const presence = await start();
    presence.failWith = Object.assign(new Error('EACCES: permission denied, open /secret/path'), { code: 'EACCES' });
    const { status, body } = await call('PATCH', '/v1/presence/settings', { hide_all: true });
    expect(status).toBe(500);
    expect(body).toEqual({ error: 'not_saved', message: 'the settings apply until the host stops, but could not be saved (EACCES)' });
  });

  it('PATCH elsewhere is a 405 with the allowed methods', async () => {
    await start();
    const response = await fetch(`${server?.url ?? ''}/v1/presence`, { method: 'PATCH', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('presence schemas and CLI options', () => {
  it('accepts null rules (remove) and redact without fields (the default set)', () => {
    expect(parsePresencePatch({ rules: { [APP]: null, '42': { mode: 'redact' } } })).toEqual({ rules: { [APP]: null, '42': { mode: 'redact' } } });
  });

  it('turns `presence set` options into a patch, with usage errors for bad values', () => {
    expect(presencePatchFromOptions({ policy: 'first-connected', pin: APP, 'hide-all': 'off', rule: [`${APP}=redact:details,state`, '42=hide', '43=share'] })).toEqual({
      policy: 'first-connected',
      pinned_application_id: APP,
      hide_all: false,
      rules: { [APP]: { mode: 'redact', fields: ['details', 'state'] }, '42': { mode: 'hide' }, '43': { mode: 'share' } },
    });
    expect(presencePatchFromOptions({ unpin: true })).toEqual({ pinned_application_id: null });
    expect(parseRuleOption(`${APP}=redact`)).toEqual([APP, { mode: 'redact' }]);
    expect(() => presencePatchFromOptions({})).toThrow(UsageError);
    expect(() => presencePatchFromOptions({ pin: APP, unpin: true })).toThrow(/not both/);
    expect(() => presencePatchFromOptions({ 'hide-all': 'yes' })).toThrow(/on or off/);
    expect(() => presencePatchFromOptions({ policy: 'loudest' })).toThrow(/most-recent, first-connected/);
    expect(() => parseRuleOption(`${APP}=redact:secrets`)).toThrow(/unknown field 'secrets'/);
    expect(() => parseRuleOption(`${APP}=hide:state`)).toThrow(/only redact takes fields/);
    expect(() => parseRuleOption('game=hide')).toThrow(/not an application id/);
  });
});
