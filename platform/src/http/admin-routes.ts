import * as v from 'valibot';
import type { PlatformAdmin } from '../admin/admin.js';
import { TEST_PROVIDER_TYPES } from '../state/model.js';
import { parseBody } from './api-routes.js';
import type { Route } from './router.js';

const UserBody = v.object({ username: v.string() });
const FriendsBody = v.object({ a: v.string(), b: v.string() });
const AppBody = v.object({ id: v.optional(v.string()), name: v.string(), strict: v.optional(v.boolean()) });
const AssetBody = v.object({ name: v.string(), type: v.optional(v.picklist([1, 2])) });
/** One way the player's client recognises a game (`GET /applications/detectable`). */
const ExecutableBody = v.object({
  os: v.picklist(['win32', 'linux', 'darwin']),
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(260), v.regex(/^>?[^\0>]+$/, 'A name is a path, with at most a leading > ("ends with")')),
  is_launcher: v.optional(v.boolean(), false),
  arguments: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(260))),
});
const AppPatchBody = v.object({
  name: v.optional(v.string()),
  public_client: v.optional(v.boolean()),
  redirect_uris: v.optional(v.array(v.string())),
  approved_scopes: v.optional(v.array(v.string())),
  webhook_events_url: v.optional(v.nullable(v.string())),
  external_auth: v.optional(
    v.array(
      v.union([
        v.object({ type: v.literal('OIDC'), issuer: v.pipe(v.string(), v.maxLength(512)), audience: v.pipe(v.string(), v.maxLength(256)) }),
        v.object({ type: v.picklist(TEST_PROVIDER_TYPES) }),
      ]),
    ),
  ),
  parent_application_id: v.optional(v.nullable(v.string())),
  executables: v.optional(v.pipe(v.array(ExecutableBody), v.maxLength(50))),
});
const GuildPatchBody = v.object({ name: v.optional(v.string()), icon: v.optional(v.nullable(v.string())) });
const ReconnectBody = v.object({ user_id: v.optional(v.string()) });

/** The `/_emulator` routes (Authorization: Admin <token>). */
export function adminRoutes(admin: PlatformAdmin): Route[] {
  return [
    { method: 'GET', pattern: '/_emulator/users', auth: 'admin', handle: () => ({ status: 200, body: admin.users() }) },
    {
      method: 'POST',
      pattern: '/_emulator/users',
      auth: 'admin',
      handle: (ctx) => ({ status: 201, body: admin.createUser(parseBody(UserBody, ctx.body).username) }),
    },
    {
      method: 'POST',
      pattern: '/_emulator/friends',
      auth: 'admin',
      handle: (ctx) => {
        const { a, b } = parseBody(FriendsBody, ctx.body);
        return { status: 200, body: admin.addFriends(a, b) };
      },
    },
    {
      method: 'DELETE',
      pattern: '/_emulator/friends',
      auth: 'admin',
      handle: (ctx) => {
        const { a, b } = parseBody(FriendsBody, ctx.body);
        return { status: 200, body: admin.removeFriends(a, b) };
      },
    },
    { method: 'GET', pattern: '/_emulator/apps', auth: 'admin', handle: () => ({ status: 200, body: admin.apps() }) },
    {
      method: 'POST',
      pattern: '/_emulator/apps',
      auth: 'admin',
      handle: (ctx) => {
        const { id, name, strict } = parseBody(AppBody, ctx.body);
        return {
          status: 201,
          body: admin.createApp({ name, ...(id !== undefined ? { id } : {}), ...(strict !== undefined ? { strict } : {}) }),
        };
      },
    },
    {
      method: 'PATCH',
      pattern: '/_emulator/apps/:id',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(AppPatchBody, ctx.body);
        const patch = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
        return { status: 200, body: admin.patchApp(ctx.params.id as string, patch) };
      },
    },
    {
      method: 'PATCH',
      pattern: '/_emulator/guilds/:id',
      auth: 'admin',
      handle: (ctx) => {
        const { name, icon } = parseBody(GuildPatchBody, ctx.body);
        return { status: 200, body: admin.patchGuild(ctx.params.id as string, { ...(name !== undefined ? { name } : {}), ...(icon !== undefined ? { icon } : {}) }) };
      },
    },
    {
      method: 'POST',
      pattern: '/_emulator/apps/:id/assets',
      auth: 'admin',
      handle: (ctx) => {
        const { name, type } = parseBody(AssetBody, ctx.body);
        return { status: 201, body: admin.addAsset(ctx.params.id as string, name, type) };
      },
    },
    {
      method: 'DELETE',
      pattern: '/_emulator/apps/:id/assets/:name',
      auth: 'admin',
      handle: (ctx) => {
        admin.removeAsset(ctx.params.id as string, ctx.params.name as string);
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      pattern: '/_emulator/gateway/reconnect',
      auth: 'admin',
      handle: (ctx) => {
        const { user_id: userId } = parseBody(ReconnectBody, ctx.body);
        return { status: 200, body: { sessions: admin.reconnect(userId) } };
      },
    },
    { method: 'POST', pattern: '/_emulator/gateway/kill', auth: 'admin', handle: () => ({ status: 200, body: { connections: admin.kill() } }) },
    { method: 'GET', pattern: '/_emulator/sessions', auth: 'admin', handle: () => ({ status: 200, body: admin.sessions() }) },
  ];
}
