import * as v from 'valibot';
import { BanError, type Bans } from '../provisional/bans.js';
import type { IdentityBook } from '../provisional/identity-book.js';
import type { TestProvider } from '../provisional/test-provider.js';
import { TEST_PROVIDER_TYPES } from '../state/model.js';
import { ok, parseBody, refusalsAs } from './api-kit.js';
import { plainObject } from './body-schemas.js';
import { ApiError, ErrorCode, invalidField, unknownUser } from './errors.js';
import type { Route } from './router.js';

const BanBody = plainObject({ permanent: v.optional(v.boolean()) });
const MintBody = plainObject({
  type: v.picklist(TEST_PROVIDER_TYPES),
  external_user_id: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  display_name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(32))),
  /** Seconds from now; zero or less mints an expired token. */
  expires_in: v.optional(v.pipe(v.number(), v.integer(), v.minValue(-31_536_000), v.maxValue(31_536_000))),
});

export interface ProvisionalAdminDeps {
  readonly book: IdentityBook;
  readonly bans: Bans;
  readonly testProvider: TestProvider;
}

const banAnswer = refusalsAs(BanError, (error) => (error.reason === 'unknown_user' ? unknownUser() : invalidField('user_id', 'PROVISIONAL_ACCOUNT', error.message)));

/** QA's view and levers of provisional accounts: the identities and their accounts, bans, and the test provider's tokens. */
export function provisionalAdminRoutes(deps: ProvisionalAdminDeps): Route[] {
  return [
    {
      method: 'GET',
      pattern: '/_emulator/provisional-accounts',
      auth: 'admin',
      handle: (ctx) => ok(deps.book.views(ctx.query.get('application_id') ?? undefined)),
    },
    { method: 'GET', pattern: '/_emulator/bans', auth: 'admin', handle: () => ok(deps.bans.list()) },
    {
      method: 'POST',
      pattern: '/_emulator/users/:id/ban',
      auth: 'admin',
      handle: (ctx) => ok(banAnswer(() => deps.bans.ban(ctx.params.id as string, parseBody(BanBody, ctx.body ?? {}).permanent ?? false))),
    },
    {
      method: 'DELETE',
      pattern: '/_emulator/users/:id/ban',
      auth: 'admin',
      handle: (ctx) => {
        if (!deps.bans.unban(ctx.params.id as string)) throw new ApiError(404, ErrorCode.UnknownUser, 'The user is not banned');
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      pattern: '/_emulator/external-tokens',
      auth: 'admin',
      handle: (ctx) => {
        const body = parseBody(MintBody, ctx.body);
        return ok(
          deps.testProvider.mint({
            type: body.type,
            externalUserId: body.external_user_id,
            ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
            ...(body.expires_in !== undefined ? { expiresIn: body.expires_in } : {}),
          }),
          201,
        );
      },
    },
  ];
}
