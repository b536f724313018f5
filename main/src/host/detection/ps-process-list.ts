import { execFile } from 'node:child_process';

/** One process as `ps` lists it: its PID, when it started (as `ps` prints it), its command line. */
export interface PsRow {
  readonly pid: number;
  /** `lstart`: e.g. `Sat Nov 28 17:02:30 2026`, the same text for as long as the process lives. */
  readonly started: string;
  /** The command line, its arguments joined by spaces (`ps` cannot say where a path with spaces ends). */
  readonly args: string;
}

/** What one run of `ps` gave, and the PID of that run (which lists itself). */
export interface PsListing {
  readonly rows: readonly PsRow[];
  readonly ownPid: number | undefined;
}

/** `pid lstart args` with `lstart` in the C locale: `  412 Sat Nov 28 17:02:30 2026 /Applications/…`. */
const ROW = /^\s*(\d+)\s+([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\s(.*)$/;

/** The rows of `ps -axww -o pid=,lstart=,args=`; a line not in that shape is a failure (the columns were not what was asked). */
export function parsePsOutput(text: string): PsRow[] {
  const rows: PsRow[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const match = ROW.exec(line);
    if (match === null) throw new Error(`ps printed a line not in the shape asked for: ${JSON.stringify(line.slice(0, 80))}`);
    rows.push({ pid: Number(match[1]), started: match[2] as string, args: match[3] as string });
  }
  return rows;
}

/**
 * Every process of the machine through `ps` (macOS has no /proc): one short-lived `ps` a scan,
 * in the C locale so `lstart` has one shape, with unlimited width (`-ww`) so long command lines
 * are whole. The same command works with Linux's procps, where the tests run it for real.
 */
export function listPsProcesses(): Promise<PsListing> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'ps',
      ['-axww', '-o', 'pid=,lstart=,args='],
      { env: { ...process.env, LC_ALL: 'C', LANG: 'C' }, maxBuffer: 64 * 1024 * 1024, timeout: 10_000, windowsHide: true },
      (error, stdout) => {
        if (error !== null) reject(new Error(`ps failed: ${error.message}`));
        else {
          try {
            resolve({ rows: parsePsOutput(stdout), ownPid: child.pid });
          } catch (parseError) {
            reject(parseError instanceof Error ? parseError : new Error(String(parseError)));
          }
        }
      },
    );
  });
}
