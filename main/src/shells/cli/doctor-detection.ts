import { call, ControlRequestError } from '../../base/control-client.js';
import { HostNotFoundError, locateHost } from '../../base/host-locator.js';
import type { DetectionDiagnosis } from '../../diagnostics/doctor/detection-section.js';
import type { CommandIo } from './cli-args.js';

/**
 * What the running host's game detection makes of every running program (`GET /v1/detection`):
 * the scanner and the list are the host's, so the doctor asks it rather than guessing. No host,
 * or one that cannot answer: said as such.
 */
export async function detectionDiagnosis(env: CommandIo['env'], runtimeDir: string | undefined): Promise<DetectionDiagnosis> {
  let host;
  try {
    host = await locateHost({ runtimeDir, env });
  } catch (error) {
    if (error instanceof HostNotFoundError) return { state: 'not-running' };
    throw error;
  }
  try {
    return (await call(host, 'GET', '/v1/detection')) as DetectionDiagnosis;
  } catch (error) {
    if (error instanceof ControlRequestError) return error.status === 0 ? { state: 'not-running' } : { state: 'no-scanner', reason: `the host could not say: ${error.message}` };
    throw error;
  }
}
