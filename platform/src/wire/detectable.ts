/**
 * The platform's list of detectable applications (`GET /applications/detectable`), shared by the
 * emulator that serves it and the host that scans running processes against it.
 *
 * An executable `name` is lower-case with `/` separators; it may carry folders
 * (`steamapps/common/game/game.exe`), and a leading `>` means "the path ends with this name"
 * rather than "the basename is this name". `arguments`, when present, must appear in the
 * process's command line for the entry to match. Launchers (`is_launcher`) are never shown as
 * a game being played.
 */
export type DetectableOs = 'win32' | 'linux' | 'darwin';

export interface DetectableExecutable {
  readonly os: DetectableOs;
  readonly name: string;
  readonly is_launcher: boolean;
  readonly arguments?: string;
}

export interface DetectableApplication {
  readonly id: string;
  readonly name: string;
  readonly executables: readonly DetectableExecutable[];
  readonly aliases?: readonly string[];
}
