/**
 * Why a request did not get a successful reply. The Client turns these into ClientResults;
 * the fields are the same ones: a kind, the RPC error code when the server sent one, and
 * the message (the server's own text for an ERROR reply).
 * - `rpc-error`: the server answered `evt: "ERROR"` with `{code, message}`.
 * - `timeout`: no reply within the request timeout (default 30 s). The request may still
 *   have been carried out.
 * - `disconnected`: the connection closed before the reply came.
 * - `not-connected`: there was no ready connection to send it on.
 * - `invalid-args`: refused on this side before sending (the server's own validation).
 */
export type RequestFailureKind = 'rpc-error' | 'timeout' | 'disconnected' | 'not-connected' | 'invalid-args';

export class RpcRequestError extends Error {
  constructor(
    readonly kind: RequestFailureKind,
    readonly cmd: string,
    /** The ERROR reply's `data.code`; null when there was no reply. */
    readonly code: number | null,
    message: string,
  ) {
    super(message);
    this.name = 'RpcRequestError';
  }

  /** Worth sending again (after a reconnect or a pause): everything but an ERROR reply or a refusal of the args. */
  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'disconnected' || this.kind === 'not-connected';
  }
}

/** A connection attempt that ended before READY. `fatal`: the server refused this application or protocol version (CLOSE 4000 / 4004); retrying cannot help. */
export class ConnectError extends Error {
  constructor(
    readonly reason: 'no-socket' | 'refused' | 'closed' | 'timeout' | 'protocol',
    message: string,
    /** The server's CLOSE code, when it sent one. */
    readonly closeCode: number | null = null,
    readonly fatal: boolean = false,
  ) {
    super(message);
    this.name = 'ConnectError';
  }
}
