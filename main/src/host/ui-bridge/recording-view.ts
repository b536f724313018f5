import type { RecordingView } from '../../../../preload/src/contract.js';
import type { RecorderStatus } from '../record/host-recorder.js';

export function recordingView(status: RecorderStatus): RecordingView {
  return {
    recording: status.recording,
    file: status.file,
    started_at: status.startedAt,
    records: status.records,
    dropped: status.dropped,
    secrets: status.secrets,
    error: status.error,
  };
}
