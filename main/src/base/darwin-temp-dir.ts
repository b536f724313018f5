import { execFile } from 'node:child_process';

/**
 * macOS: the per-user temporary directory of the GUI session (`getconf DARWIN_USER_TEMP_DIR`),
 * which apps started from the Dock or Finder get as TMPDIR even when the shell's TMPDIR or
 * XDG_RUNTIME_DIR says otherwise. Undefined elsewhere, or when getconf does not answer.
 */
export function darwinUserTempDir(platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  if (platform !== 'darwin') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    execFile('/usr/bin/getconf', ['DARWIN_USER_TEMP_DIR'], { timeout: 2000 }, (error, stdout) => {
      const dir = stdout.trim();
      resolve(error === null && dir.startsWith('/') ? dir : undefined);
    });
  });
}
