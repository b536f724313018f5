import type * as v from 'valibot';
import type { AccessRefusal } from '../access/access-refusal.js';
import type { ApiErrorBody } from '../wire/index.js';

/** An API error: the status and the `{code, message, errors?}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get body(): ApiErrorBody {
    return this.errors === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, errors: this.errors };
  }
}

export const ErrorCode = {
  General: 0,
  UnknownApplication: 10002,
  UnknownChannel: 10003,
  UnknownGuild: 10004,
  UnknownMessage: 10008,
  UnknownUser: 10013,
  UnknownLobby: 10031,
  Unauthorized: 40001,
  MissingAccess: 50001,
  CannotActOnDmChannel: 50003,
  CannotEditOthersMessage: 50005,
  CannotMessageUser: 50007,
  MissingPermissions: 50013,
  MissingOAuthScope: 50026,
  InvalidFormBody: 50035,
  InvalidJson: 50109,
} as const;

export const notFoundRoute = (): ApiError => new ApiError(404, ErrorCode.General, '404: Not Found');
export const methodNotAllowed = (): ApiError => new ApiError(405, ErrorCode.General, '405: Method Not Allowed');
export const unauthorized = (): ApiError => new ApiError(401, ErrorCode.General, '401: Unauthorized');
export const missingAccess = (): ApiError => new ApiError(403, ErrorCode.MissingAccess, 'Missing Access');
export const cannotActOnDmChannel = (): ApiError => new ApiError(403, ErrorCode.CannotActOnDmChannel, 'Cannot execute action on a DM channel');
export const cannotEditOthersMessage = (): ApiError => new ApiError(403, ErrorCode.CannotEditOthersMessage, 'Cannot edit a message authored by another user');
export const cannotMessageUser = (): ApiError => new ApiError(403, ErrorCode.CannotMessageUser, 'Cannot send messages to this user');
export const missingPermissions = (): ApiError => new ApiError(403, ErrorCode.MissingPermissions, 'Missing Permissions');
export const missingOAuthScope = (): ApiError => new ApiError(403, ErrorCode.MissingOAuthScope, 'Missing required OAuth2 scope');
export const unknownApplication = (): ApiError => new ApiError(404, ErrorCode.UnknownApplication, 'Unknown Application');
export const unknownChannel = (): ApiError => new ApiError(404, ErrorCode.UnknownChannel, 'Unknown Channel');
export const unknownGuild = (): ApiError => new ApiError(404, ErrorCode.UnknownGuild, 'Unknown Guild');
export const unknownMessage = (): ApiError => new ApiError(404, ErrorCode.UnknownMessage, 'Unknown Message');
export const unknownUser = (): ApiError => new ApiError(404, ErrorCode.UnknownUser, 'Unknown User');
export const unknownLobby = (): ApiError => new ApiError(404, ErrorCode.UnknownLobby, 'Unknown Lobby');
export const unknownInvite = (): ApiError => new ApiError(404, 10006, 'Unknown Invite');
export const invalidJson = (): ApiError => new ApiError(400, ErrorCode.InvalidJson, 'The request body contains invalid JSON.');

/** 50035 with `errors` mirroring the request path of one field. */
export function invalidField(field: string, code: string, message: string): ApiError {
  return invalidForm([{ path: field.split('.'), code, message }]);
}

/** 50035 from valibot issues: `errors.<path>._errors = [{code, message}]`. */
export function invalidBody(issues: readonly v.BaseIssue<unknown>[]): ApiError {
  return invalidForm(
    issues.map((issue) => ({
      path: (issue.path ?? []).map((item) => String(item.key)),
      code: issue.received === 'undefined' ? 'BASE_TYPE_REQUIRED' : 'BASE_TYPE_BAD',
      message: issue.received === 'undefined' ? 'This field is required' : issue.message,
    })),
  );
}

function invalidForm(problems: readonly { path: readonly string[]; code: string; message: string }[]): ApiError {
  const errors: Record<string, unknown> = {};
  for (const problem of problems) {
    let node = errors;
    for (const key of problem.path) {
      const next = (node[key] ??= {}) as Record<string, unknown>;
      node = next;
    }
    const list = (node._errors ??= []) as { code: string; message: string }[];
    list.push({ code: problem.code, message: problem.message });
  }
  return new ApiError(400, ErrorCode.InvalidFormBody, 'Invalid Form Body', errors);
}

/** The access policy's refusal as the API answers it: unknown things with their resource's code. */
export function refusalToApi(refusal: AccessRefusal): ApiError {
  switch (refusal.reason) {
    case 'unknown_lobby':
      return unknownLobby();
    case 'unknown_invite':
      return unknownInvite();
    case 'unknown_user':
      return unknownUser();
    case 'unknown_channel':
      return unknownChannel();
    case 'unknown_guild':
      return unknownGuild();
    case 'missing_access':
      return missingAccess();
    case 'cannot_message_user':
      return cannotMessageUser();
    case 'foreign_application':
      return invalidField(refusal.field ?? 'application_id', 'BASE_TYPE_BAD', refusal.message);
  }
}
