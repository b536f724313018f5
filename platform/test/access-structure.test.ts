import { describe, expect, it } from 'vitest';
import { accessProblems } from '../src/access/route-access.js';
import { createRequestHandler } from '../src/http/handler.js';
import type { Route } from '../src/http/router.js';
import { DEFAULT_LIMITS } from '../src/support/limits.js';
import { SILENT_LOGGER } from '../src/support/logger.js';
import { registeredRoutes, withServices } from './support/tenants.js';

describe('issue 25 §1 structural: one access policy that every route goes through', () => {
  it('every registered route but the admin’s declares what each of its params names', async () => {
    const { api: apiTable, root } = await registeredRoutes();
    expect(accessProblems([...apiTable, ...root])).toEqual([]);
    const social = apiTable.filter((route) => /^\/(lobbies|channels|guilds|users|invites|partner-sdk\/dms)/.test(route.pattern));
    expect(social.length).toBeGreaterThan(30);
    for (const route of social.filter((candidate) => candidate.pattern.startsWith('/lobbies/:id'))) expect(route.access?.id, route.pattern).toMatch(/^lobby/);
  });

  it('a route added without an access rule, or with a param it does not declare, stops the emulator from serving', async () => {
    const forgotten: Route = { method: 'GET', pattern: '/lobbies/:id/secrets', auth: 'bearer-or-bot', handle: () => ({ status: 200 }) };
    const partial: Route = { method: 'GET', pattern: '/lobbies/:id/messages/:message/replies', auth: 'bot', access: { id: 'lobby' }, handle: () => ({ status: 200 }) };
    expect(accessProblems([forgotten, partial])).toEqual(['GET /lobbies/:id/secrets declares no access rule', 'GET /lobbies/:id/messages/:message/replies: :message has no declared kind']);
    await withServices((services) => {
      const routes = services.routes();
      const make = (extra: Route) => () =>
        createRequestHandler({ ...routes, apiRoutes: [...routes.apiRoutes, extra], bearer: () => undefined, store: services.store, policy: services.policy, adminToken: 'x', limits: DEFAULT_LIMITS, now: Date.now, logger: SILENT_LOGGER });
      expect(make(forgotten)).toThrow(/declares no access rule/);
      expect(make(partial)).toThrow(/:message has no declared kind/);
      expect(make({ ...forgotten, access: { id: 'lobby' } })).not.toThrow();
    });
  });
});
