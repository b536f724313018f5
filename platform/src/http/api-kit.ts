import * as v from 'valibot';
import { InviteError } from '../invites/invites.js';
import type { UserRecord } from '../state/model.js';
import { type ApiError, invalidBody, invalidField, missingAccess, unknownApplication, unknownMessage, unknownUser } from './errors.js';
import type { RequestContext, RouteResult } from './router.js';

/** The body as `schema` describes it, else a 400 naming the problems. */
export function parseBody<const S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, body);
  if (!result.success) throw invalidBody(result.issues);
  return result.output;
}

export const ok = (body: unknown, status = 200): RouteResult => ({ status, body });
export const noContent: RouteResult = { status: 204 };

/** The signed-in user of a `user` route. */
export function me(ctx: RequestContext): UserRecord {
  return ctx.user as UserRecord;
}

/** Maps invite refusals to API errors. */
export function inviteErrorToApi(error: InviteError): ApiError {
  switch (error.reason) {
    case 'invalid_form':
      return invalidField(error.field ?? 'activity', 'INVALID_ACTIVITY', error.message);
    case 'missing_access':
      return missingAccess();
    case 'unknown_application':
      return unknownApplication();
    case 'unknown_message':
      return unknownMessage();
    case 'unknown_user':
      return unknownUser();
  }
}

/**
 * A wrapper that runs `work()` and throws a service's refusal (an instance of `type`) as its
 * API error (`toApi`); anything else passes through. `work` may return a promise: its
 * rejection is translated the same way. Each service's routes make theirs with this.
 */
export function refusalsAs<E extends Error>(type: abstract new (...args: never[]) => E, toApi: (error: E) => ApiError): <T>(work: () => T) => T {
  const translate = (error: unknown): never => {
    throw error instanceof type ? toApi(error) : error;
  };
  return <T>(work: () => T): T => {
    let result: T;
    try {
      result = work();
    } catch (error) {
      return translate(error);
    }
    return (result instanceof Promise ? result.catch(translate) : result) as T;
  };
}

/** `work()`, with an invite refusal thrown as its API error. */
export const withInviteErrors = refusalsAs(InviteError, inviteErrorToApi);
