import { createHash } from 'node:crypto';
import type { AppRecord } from '../state/model.js';
import type { DetectableApplication } from '../wire/index.js';
import type { HttpDeps } from './deps.js';
import type { RequestContext, Route, RouteResult } from './router.js';

/** The list as served: every application that has executables, in the store's order. */
export function detectableApplications(apps: readonly AppRecord[]): DetectableApplication[] {
  const list: DetectableApplication[] = [];
  for (const app of apps) {
    const executables = app.executables ?? [];
    if (executables.length === 0) continue;
    list.push({ id: app.id, name: app.name, executables, aliases: [] });
  }
  return list;
}

/** A strong validator of the body: the same list answers the same tag, whatever the process. */
function entityTag(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** `If-None-Match` names the tag (a list of tags, a weak one, or `*`). */
function notModified(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === '*' || trimmed === tag || trimmed === `W/${tag}`;
  });
}

/**
 * `GET /applications/detectable`: what the player's client scans running programs against. No
 * auth, as the real route. An `ETag` comes with it; a request whose `If-None-Match` names it is
 * answered 304 without a body **(ours: the public record does not say how the real one caches)**.
 */
export function detectableRoutes(deps: Pick<HttpDeps, 'store'>): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/applications/detectable',
      access: {},
      auth: 'none',
      handle: (ctx: RequestContext): RouteResult => {
        const body = JSON.stringify(detectableApplications(deps.store.apps()));
        const tag = entityTag(body);
        const headers = { ETag: tag, 'Cache-Control': 'no-cache' };
        if (notModified(ctx.request.headers['if-none-match'], tag)) return { status: 304, headers };
        return { status: 200, text: body, contentType: 'application/json', headers };
      },
    },
  ];
}
