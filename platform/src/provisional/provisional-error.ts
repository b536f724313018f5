/**
 * A refusal of the provisional-account and child-token endpoints: the HTTP status and the
 * platform's JSON error code (530xxx for external auth and merges, as the public docs list
 * them). The routes turn it into the API's `{code, message}` body.
 */
export class ProvisionalError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ProvisionalError';
  }
}

/** The codes, named as the public docs name them. */
export const ProvisionalCode = {
  UnknownUser: 10013,
  InvalidUserType: 50229,
  InvalidFormBody: 50035,
  NotConfigured: 530000,
  ExpiredToken: 530001,
  InvalidIssuer: 530002,
  InvalidAudience: 530003,
  TokenTooOld: 530004,
  InvalidClientSecret: 530007,
  OidcConfigNotFound: 530008,
  OidcJwksNotFound: 530009,
  NonProvisional: 530010,
  InvalidMergeSource: 530014,
  InvalidMergeDestination: 530016,
  MergeSourceBanned: 530017,
  InvalidJwt: 530020,
  TooManyIdentities: 530023,
} as const;

export const refuse = (code: number, message: string, status = 400): ProvisionalError => new ProvisionalError(status, code, message);
