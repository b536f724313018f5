/**
 * The Social SDK's `AuthorizationArgs` and `AuthorizationCodeChallenge` records (seed:
 * "AuthorizationArgs (Social SDK record)"), as TypeScript classes.
 */

/** The installation context (`integration_type` on the authorize URL). */
export const IntegrationType = { GuildInstall: 0, UserInstall: 1 } as const;
export type IntegrationType = (typeof IntegrationType)[keyof typeof IntegrationType];

/** PKCE methods: only S256 exists (the platform accepts no other). */
export type AuthenticationCodeChallengeMethod = 'S256';

export const INVALID_RECORD_MESSAGE = 'AuthorizationArgs is not valid (moved from or nullobj)';
export const INVALID_CHALLENGE_MESSAGE = 'AuthorizationCodeChallenge is not valid (moved from or nullobj)';

const U64_MAX = (1n << 64n) - 1n;
/** RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/** Set while an invalid (null) instance is being constructed; the constructors take no argument. */
let constructingNull = false;

function frozen<T extends object>(value: T): T {
  Object.freeze(value);
  return value;
}

function makeNull<T>(create: () => T): T {
  constructingNull = true;
  try {
    return create();
  } finally {
    constructingNull = false;
  }
}

/**
 * An unsigned 64-bit id as its canonical decimal string. Accepts a bigint or a string of
 * decimal digits (no sign, no spaces, no exponent); anything else, or a value outside
 * 0..2^64-1, is a RangeError.
 */
export function toU64String(value: unknown, what = 'id'): string {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'string' && /^[0-9]+$/.test(value)) n = BigInt(value);
  else throw new RangeError(`${what} must be an unsigned 64-bit integer given as a decimal string or a bigint`);
  if (n < 0n || n > U64_MAX) throw new RangeError(`${what} must be within 0..18446744073709551615`);
  return n.toString();
}

/** Checks a URI scheme for CustomSchemeParam (RFC 3986 syntax); a RangeError otherwise. */
export function checkUriScheme(value: unknown, what = 'customSchemeParam'): string {
  if (typeof value !== 'string' || !SCHEME.test(value)) {
    throw new RangeError(`${what} must be a URI scheme (a letter, then letters, digits, "+", "-" or ".")`);
  }
  return value;
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string or undefined`);
  return value;
}

/**
 * The PKCE challenge of an authorization (`code_challenge` and `code_challenge_method`).
 * Make one with `createAuthorizationCodeVerifier()` (pkce.ts) and pass its `challenge()` to
 * `AuthorizationArgs.setCodeChallenge`.
 *
 * How the C++ record behaviour maps to TypeScript (same as {@link AuthorizationArgs}):
 * - copy-construct / copy-assign → `clone()`: an independent copy.
 * - move-construct / move-assign (noexcept) → `take()`: a new record with the contents; the
 *   source becomes invalid. Never throws (moving an invalid record gives an invalid one).
 * - `operator bool` → `isValid()`: true exactly when the instance holds a valid object: every
 *   constructed record until it is moved from; false for `nullobj` and moved-from records.
 * - `static nullobj` → `AuthorizationCodeChallenge.nullobj`: an uninitialised (invalid)
 *   instance, frozen and shared.
 * - Every getter and setter of an invalid record throws `Error("AuthorizationCodeChallenge is
 *   not valid (moved from or nullobj)")` (C++ would dereference a null handle).
 *
 * A fresh record has `challenge() === ''` and `method() === 'S256'`.
 */
export class AuthorizationCodeChallenge {
  static readonly nullobj: AuthorizationCodeChallenge = frozen(makeNull(() => new AuthorizationCodeChallenge()));

  #valid: boolean;
  #challenge = '';
  #method: AuthenticationCodeChallengeMethod = 'S256';

  constructor() {
    this.#valid = !constructingNull;
  }

  #check(): void {
    if (!this.#valid) throw new Error(INVALID_CHALLENGE_MESSAGE);
  }

  isValid(): boolean {
    return this.#valid;
  }

  challenge(): string {
    this.#check();
    return this.#challenge;
  }

  /** The base64url SHA-256 of the verifier (43 characters for S256). */
  setChallenge(value: string): void {
    this.#check();
    if (typeof value !== 'string') throw new TypeError('challenge must be a string');
    this.#challenge = value;
  }

  method(): AuthenticationCodeChallengeMethod {
    this.#check();
    return this.#method;
  }

  setMethod(value: AuthenticationCodeChallengeMethod): void {
    this.#check();
    if (value !== 'S256') throw new RangeError('the only code challenge method is S256');
    this.#method = value;
  }

  clone(): AuthorizationCodeChallenge {
    const copy = makeNull(() => new AuthorizationCodeChallenge());
    copy.#valid = this.#valid;
    copy.#challenge = this.#challenge;
    copy.#method = this.#method;
    return copy;
  }

  take(): AuthorizationCodeChallenge {
    const moved = this.clone();
    if (this.#valid) {
      this.#valid = false;
      this.#challenge = '';
    }
    return moved;
  }
}

/**
 * The arguments of `Client.authorize` (the Social SDK's `AuthorizationArgs`). Every field has
 * a getter and a `set<Field>` setter; optional fields take `undefined` to unset.
 *
 * | Field | Getter type | Rule |
 * |---|---|---|
 * | ClientId | `string \| undefined` | u64 application id as a decimal string (the setter takes a string or bigint); when unset the Client's `setApplicationId` value is used |
 * | Scopes | `string` | required; space-separated (`getDefaultPresenceScopes()` etc.); `''` until set |
 * | State | `string \| undefined` | OAuth2 state; leave unset and the SDK generates a secure random one |
 * | Nonce | `string \| undefined` | OpenID Connect nonce (echoed in the id_token) |
 * | CodeChallenge | `AuthorizationCodeChallenge \| undefined` | PKCE; needed for `getToken` |
 * | IntegrationType | `IntegrationType \| undefined` | 0 guild install, 1 user install |
 * | CustomSchemeParam | `string \| undefined` | mobile redirect `<scheme>:/authorize/callback` |
 *
 * How the C++ record behaviour maps to TypeScript:
 * - copy-construct / copy-assign → `clone()`: an independent copy, the code challenge
 *   record included. Like C++ value semantics, `setCodeChallenge` stores a copy of the
 *   challenge and `codeChallenge()` returns a copy, so changing either later does not change
 *   the record.
 * - move-construct / move-assign (noexcept) → `take()`: a new record with the contents; the
 *   source becomes invalid. Never throws (moving an invalid record gives an invalid one).
 * - `operator bool` → `isValid()`. There is no implicit boolean conversion in TypeScript
 *   (every object is truthy), so `if (args)` is always true: call `isValid()`. It is true
 *   exactly when the instance holds a valid object: a `new AuthorizationArgs()` is valid at
 *   once (even before scopes are set; a missing scope is the server's `invalid_scope`, not
 *   an invalid record), and stays valid until it is moved from with `take()`.
 * - `static nullobj` → `AuthorizationArgs.nullobj`: an uninitialised (invalid) instance,
 *   frozen and shared; `nullobj.clone()` and `nullobj.take()` are invalid too.
 * - Every getter and setter of an invalid record throws
 *   `Error("AuthorizationArgs is not valid (moved from or nullobj)")`.
 * - Setters validate: a bad ClientId, IntegrationType or CustomSchemeParam is a RangeError, a
 *   value of the wrong type a TypeError.
 */
export class AuthorizationArgs {
  static readonly nullobj: AuthorizationArgs = frozen(makeNull(() => new AuthorizationArgs()));

  #valid: boolean;
  #clientId: string | undefined;
  #scopes = '';
  #state: string | undefined;
  #nonce: string | undefined;
  #codeChallenge: AuthorizationCodeChallenge | undefined;
  #integrationType: IntegrationType | undefined;
  #customSchemeParam: string | undefined;

  constructor() {
    this.#valid = !constructingNull;
  }

  #check(): void {
    if (!this.#valid) throw new Error(INVALID_RECORD_MESSAGE);
  }

  /** C++ `operator bool`. */
  isValid(): boolean {
    return this.#valid;
  }

  clientId(): string | undefined {
    this.#check();
    return this.#clientId;
  }

  setClientId(value: string | bigint | undefined): void {
    this.#check();
    this.#clientId = value === undefined ? undefined : toU64String(value, 'clientId');
  }

  scopes(): string {
    this.#check();
    return this.#scopes;
  }

  setScopes(value: string): void {
    this.#check();
    if (typeof value !== 'string') throw new TypeError('scopes must be a space-separated string');
    this.#scopes = value;
  }

  state(): string | undefined {
    this.#check();
    return this.#state;
  }

  setState(value: string | undefined): void {
    this.#check();
    this.#state = optionalString(value, 'state');
  }

  nonce(): string | undefined {
    this.#check();
    return this.#nonce;
  }

  setNonce(value: string | undefined): void {
    this.#check();
    this.#nonce = optionalString(value, 'nonce');
  }

  /** A copy of the stored challenge (value semantics). */
  codeChallenge(): AuthorizationCodeChallenge | undefined {
    this.#check();
    return this.#codeChallenge?.clone();
  }

  /** Stores a copy; an invalid challenge (nullobj, moved from) is a RangeError: pass undefined to unset. */
  setCodeChallenge(value: AuthorizationCodeChallenge | undefined): void {
    this.#check();
    if (value === undefined) {
      this.#codeChallenge = undefined;
      return;
    }
    if (!(value instanceof AuthorizationCodeChallenge)) throw new TypeError('codeChallenge must be an AuthorizationCodeChallenge or undefined');
    if (!value.isValid()) throw new RangeError(`${INVALID_CHALLENGE_MESSAGE}; pass undefined to unset the code challenge`);
    this.#codeChallenge = value.clone();
  }

  integrationType(): IntegrationType | undefined {
    this.#check();
    return this.#integrationType;
  }

  setIntegrationType(value: IntegrationType | undefined): void {
    this.#check();
    if (value !== undefined && value !== IntegrationType.GuildInstall && value !== IntegrationType.UserInstall) {
      throw new RangeError('integrationType must be IntegrationType.GuildInstall (0) or IntegrationType.UserInstall (1)');
    }
    this.#integrationType = value;
  }

  customSchemeParam(): string | undefined {
    this.#check();
    return this.#customSchemeParam;
  }

  setCustomSchemeParam(value: string | undefined): void {
    this.#check();
    this.#customSchemeParam = value === undefined ? undefined : checkUriScheme(value);
  }

  clone(): AuthorizationArgs {
    const copy = makeNull(() => new AuthorizationArgs());
    copy.#valid = this.#valid;
    copy.#clientId = this.#clientId;
    copy.#scopes = this.#scopes;
    copy.#state = this.#state;
    copy.#nonce = this.#nonce;
    copy.#codeChallenge = this.#codeChallenge?.clone();
    copy.#integrationType = this.#integrationType;
    copy.#customSchemeParam = this.#customSchemeParam;
    return copy;
  }

  take(): AuthorizationArgs {
    const moved = makeNull(() => new AuthorizationArgs());
    if (!this.#valid) return moved;
    moved.#valid = true;
    moved.#clientId = this.#clientId;
    moved.#scopes = this.#scopes;
    moved.#state = this.#state;
    moved.#nonce = this.#nonce;
    moved.#codeChallenge = this.#codeChallenge;
    moved.#integrationType = this.#integrationType;
    moved.#customSchemeParam = this.#customSchemeParam;
    this.#valid = false;
    this.#clientId = undefined;
    this.#scopes = '';
    this.#state = undefined;
    this.#nonce = undefined;
    this.#codeChallenge = undefined;
    this.#integrationType = undefined;
    this.#customSchemeParam = undefined;
    return moved;
  }
}
