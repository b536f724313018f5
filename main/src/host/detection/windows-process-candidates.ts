import { normalizeDetectablePath } from './detectable-index.js';
import type { ProcessCandidate, ScannedProcess } from './process-source.js';
import type { WindowsProcessRow } from './windows-process-list.js';

/**
 * From what WMI says of a Windows process to the paths it is matched by, all against the list's
 * `win32` entries: its `ExecutablePath` (`C:\Games\Foo\foo.exe`, lower-cased with `/` as the
 * index expects), then argv[0] of its command line when that is an absolute path and says
 * something else, then, when there is neither (system processes, another user's elevated ones,
 * and every other process under Wine 8), its image name (`foo.exe`), which matches entries by
 * basename only. The arguments are the command line's after argv[0], split as Windows programs
 * split them and joined with spaces, lower-case.
 */

/** `C:\…`, `C:/…` or `\\server\…` / `\\?\…`. */
function isAbsolute(path: string): boolean {
  return /^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/** `\\?\C:\…` (a path in its long form) as `C:\…`. */
function withoutLongPrefix(path: string): string {
  return /^\\\\\?\\[a-zA-Z]:\\/.test(path) ? path.slice(4) : path;
}

/** argv[0]: up to the closing quote when it starts with one, else up to the first space or tab; and where the rest begins. */
function programOf(commandLine: string): { program: string; rest: number } {
  if (commandLine.startsWith('"')) {
    const close = commandLine.indexOf('"', 1);
    return close < 0 ? { program: commandLine.slice(1), rest: commandLine.length } : { program: commandLine.slice(1, close), rest: close + 1 };
  }
  const end = commandLine.search(/[ \t]/);
  return end < 0 ? { program: commandLine, rest: commandLine.length } : { program: commandLine.slice(0, end), rest: end };
}

/** One argument from `start`: quotes group, `\"` is a quote, 2n backslashes before a quote are n, `""` inside quotes is a quote. */
function argumentAt(text: string, start: number): { arg: string; end: number } {
  let arg = '';
  let quoted = false;
  let i = start;
  while (i < text.length && (quoted || (text[i] !== ' ' && text[i] !== '\t'))) {
    let slashes = 0;
    while (text[i] === '\\') {
      slashes++;
      i++;
    }
    if (text[i] !== '"') {
      arg += '\\'.repeat(slashes);
      if (i < text.length && (quoted || (text[i] !== ' ' && text[i] !== '\t'))) arg += text[i++];
      continue;
    }
    arg += '\\'.repeat(Math.floor(slashes / 2));
    if (slashes % 2 === 1) arg += '"';
    else if (quoted && text[i + 1] === '"') {
      arg += '"';
      i++;
    } else quoted = !quoted;
    i++;
  }
  return { arg, end: i };
}

/** A command line split as the C runtime splits it (`CommandLineToArgvW`'s rules). */
export function splitWindowsCommandLine(commandLine: string): string[] {
  if (commandLine.trim() === '') return [];
  const { program, rest } = programOf(commandLine);
  const argv = [program];
  let i = rest;
  for (;;) {
    while (commandLine[i] === ' ' || commandLine[i] === '\t') i++;
    if (i >= commandLine.length) return argv;
    const { arg, end } = argumentAt(commandLine, i);
    argv.push(arg);
    i = end;
  }
}

export function windowsScannedProcess(row: WindowsProcessRow): ScannedProcess {
  const candidates: ProcessCandidate[] = [];
  const add = (path: string): void => {
    const normalized = normalizeDetectablePath(withoutLongPrefix(path));
    if (normalized !== '' && !candidates.some((candidate) => candidate.path === normalized)) candidates.push({ path: normalized, os: 'win32' });
  };
  const argv = splitWindowsCommandLine(row.commandLine);
  if (row.path !== '') add(row.path);
  const program = argv[0] ?? '';
  if (isAbsolute(program)) add(program);
  if (candidates.length === 0) add(row.name);
  return { pid: row.pid, candidates, args: argv.slice(1).join(' ').toLowerCase() };
}
