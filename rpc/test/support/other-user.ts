import { execFileSync, spawn } from 'node:child_process';

/** A second OS user for the same-user tests (CI runs as root, which may create it). */
export const OTHER_USER = 'companion-test-other';

export function run(command: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() });
    });
  });
}

/** Why a test as another OS user cannot run here, or null when it can (creating the user if needed). */
export function otherUserUnavailable(): string | null {
  if (process.platform !== 'linux') return `tested on Linux only (this is ${process.platform})`;
  if (process.geteuid?.() !== 0) return 'creating and switching to a second OS user needs root';
  try {
    execFileSync('id', ['-u', OTHER_USER], { stdio: 'ignore' });
  } catch {
    try {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], { stdio: 'ignore' });
    } catch (error) {
      return `useradd ${OTHER_USER} failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  try {
    execFileSync('runuser', ['-u', OTHER_USER, '--', process.execPath, '-e', '0'], { stdio: 'ignore', cwd: '/' });
  } catch (error) {
    return `node cannot run as ${OTHER_USER}: ${error instanceof Error ? error.message : String(error)}`;
  }
  return null;
}
