/** Why a file is not read as a recording. */
export type RecordingErrorReason = 'unreadable' | 'empty' | 'not-a-recording' | 'unsupported';

/** The file is missing, unreadable, or not a Companion recording (or one of a newer format). */
export class RecordingError extends Error {
  constructor(
    message: string,
    /** 'unsupported': a recording of a newer format version or compression than this reader knows. */
    readonly reason: RecordingErrorReason = 'not-a-recording',
  ) {
    super(message);
    this.name = 'RecordingError';
  }
}
