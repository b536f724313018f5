import type { OriginApprovals, OriginRequestOutcome, OriginRequestView } from '../auth/origin-approvals.js';
import { ControlError, type ControlEvent } from './control-backend.js';
import type { ControlRouteEntry } from './control-server.js';
import { parseEmpty, parseId } from './control-schemas.js';

/** What the routes need of the host's OriginApprovals. */
export type OriginControl = Pick<OriginApprovals, 'pending' | 'approve' | 'deny' | 'decisions' | 'forget'>;

const OK = { ok: true } as const;

/**
 * Web origins that want the RPC WebSocket (`/v1/origin-requests`) and the player's answers
 * (`/v1/origins`). Shapes: OriginRequestView and OriginDecisionView in main/src/host/auth/origin-approvals.ts.
 */
export function originRoutes(origins: OriginControl): ControlRouteEntry[] {
  const unknownRequest = (id: string): ControlError => new ControlError(404, `No pending origin request ${id}`);
  return [
    ['GET', '/v1/origin-requests', async () => ({ origin_requests: origins.pending() })],
    ['POST', '/v1/origin-requests/:id/approve', async ({ params, body }) => {
      parseEmpty(body);
      const id = parseId(params.id ?? '', 'id');
      if (!(await origins.approve(id))) throw unknownRequest(id);
      return OK;
    }],
    ['POST', '/v1/origin-requests/:id/deny', async ({ params, body }) => {
      parseEmpty(body);
      const id = parseId(params.id ?? '', 'id');
      if (!origins.deny(id)) throw unknownRequest(id);
      return OK;
    }],
    ['GET', '/v1/origins', async () => ({ origins: origins.decisions() })],
    ['DELETE', '/v1/origins/:id', async ({ params }) => {
      const id = parseId(params.id ?? '', 'id');
      if (!(await origins.forget(id))) throw new ControlError(404, `No remembered origin ${id}`);
      return OK;
    }],
  ];
}

/** The control API's names of the OriginApprovals events. */
export const ORIGIN_EVENTS = {
  request: 'origin-request',
  settled: 'origin-settled',
  decisions: 'origins',
} as const;

/**
 * Forwards OriginApprovals' events as control events: `origin-request` (OriginRequestView),
 * `origin-settled` (`{request: OriginRequestView, outcome: 'approved' | 'denied' | 'expired'}`)
 * and `origins` (null: GET /v1/origins changed). Returns the unsubscribe function.
 */
export function originControlEvents(origins: OriginApprovals, listener: (event: ControlEvent) => void): () => void {
  const onRequest = (request: OriginRequestView): void => listener({ type: ORIGIN_EVENTS.request, data: request });
  const onSettled = (request: OriginRequestView, outcome: OriginRequestOutcome): void =>
    listener({ type: ORIGIN_EVENTS.settled, data: { request, outcome } });
  const onDecisions = (): void => listener({ type: ORIGIN_EVENTS.decisions, data: null });
  origins.on('request', onRequest);
  origins.on('settled', onSettled);
  origins.on('decisions', onDecisions);
  return () => {
    origins.off('request', onRequest);
    origins.off('settled', onSettled);
    origins.off('decisions', onDecisions);
  };
}
