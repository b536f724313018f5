/**
 * The output of the process-list script (windows-process-list-script.ts) read back, and the file
 * of known processes written for it. Lines are `= PID` (known, unchanged), `+ PID<TAB>STAMP<TAB>
 * NAME<TAB>PATH<TAB>COMMANDLINE` (read in full), `.` (the end: the list is whole) and `! CODE
 * MESSAGE` (WMI failed); `%XXXX` in a field is the UTF-16 code unit XXXX.
 */

/** A process the script read in full. */
export interface WindowsProcessRow {
  readonly pid: number;
  /** What tells this process from another under the same PID later (creation date and name). */
  readonly stamp: string;
  /** The image's name (`foo.exe`); what Wine 8 gives when it gives no path. */
  readonly name: string;
  /** `ExecutablePath`: empty for system processes, another user's elevated ones, and under Wine 8. */
  readonly path: string;
  /** `CommandLine`, as the process was started (argv[0] quoted or not); empty when unreadable. */
  readonly commandLine: string;
}

export interface WindowsProcessList {
  /** Known processes still running, unchanged. */
  readonly kept: readonly number[];
  /** Processes read in full: new, or a PID now another process's. */
  readonly fresh: readonly WindowsProcessRow[];
}

export class ProcessListError extends Error {
  override readonly name = 'ProcessListError';
}

function decode(field: string): string {
  return field.includes('%') ? field.replace(/%([0-9A-Fa-f]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : field;
}

function pidOf(text: string, line: string): number {
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid < 0 || text.trim() === '') throw new ProcessListError(`process list: bad PID in ${JSON.stringify(line.slice(0, 80))}`);
  return pid;
}

function rowOf(line: string): WindowsProcessRow {
  const fields = line.slice(2).split('\t');
  if (fields.length !== 5) throw new ProcessListError(`process list: ${fields.length} fields, 5 expected, in ${JSON.stringify(line.slice(0, 80))}`);
  const [pid = '', stamp = '', name = '', path = '', commandLine = ''] = fields;
  return { pid: pidOf(pid, line), stamp, name: decode(name), path: decode(path), commandLine: decode(commandLine) };
}

/** The script's output read back; throws a ProcessListError when WMI failed or the output is cut short. */
export function parseProcessList(output: string): WindowsProcessList {
  const kept: number[] = [];
  const fresh: WindowsProcessRow[] = [];
  let whole = false;
  for (const raw of output.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') continue;
    if (whole) throw new ProcessListError(`process list: output after its end: ${JSON.stringify(line.slice(0, 80))}`);
    if (line.startsWith('= ')) kept.push(pidOf(line.slice(2), line));
    else if (line.startsWith('+ ')) fresh.push(rowOf(line));
    else if (line === '.') whole = true;
    else if (line.startsWith('! ')) throw new ProcessListError(`process list: WMI failed: ${decode(line.slice(2))}`);
    else throw new ProcessListError(`process list: unexpected line ${JSON.stringify(line.slice(0, 80))}`);
  }
  if (!whole) throw new ProcessListError('process list: output cut short (no end line)');
  return { kept, fresh };
}

/** The script's file of known processes: `PID<TAB>STAMP` a line, CRLF (what the FileSystemObject reads). */
export function knownProcessesFile(known: ReadonlyMap<number, string>): string {
  let text = '';
  for (const [pid, stamp] of known) text += `${pid}\t${stamp}\r\n`;
  return text;
}
