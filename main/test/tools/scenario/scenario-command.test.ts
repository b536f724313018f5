/**
 * `companion scenario run` as the built command (bin/companion.js, a real process): an example
 * end to end with its closing line, JUnit beside it, usage errors and invalid files with exit
 * code 2, and the help that says what the closing line counts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliCleanup, CliProcess } from '../../support/cli-process.js';
import { parseXml } from './xml-parse.js';

const cleanup = cliCleanup('companion-scenario-cli-');

async function run(args: string[], env: Record<string, string> = {}): Promise<CliProcess & { code: number | null }> {
  const proc = cleanup.track(CliProcess.run(args, { TMPDIR: await cleanup.dir(), ...env }));
  const { code } = await proc.exited;
  return Object.assign(proc, { code });
}

describe('companion scenario run', () => {
  it('runs an example end to end: a line per step, a line per scenario, the closing line; exit code 0', async () => {
    const dir = await cleanup.dir();
    const junit = path.join(dir, 'junit.xml');
    const proc = await run(['scenario', 'run', 'examples/scenarios/revoke.yaml', '--junit', junit]);
    expect(proc.stderr).toBe('');
    expect(proc.code).toBe(0);
    const lines = proc.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe("scenario 'revoke closes the authenticated connection' (examples/scenarios/revoke.yaml)");
    expect(lines[1]).toMatch(/^ok 1 game linked \(1234567890123456789\): READY as alice, connection c\d+ \(\d+ ms\)$/);
    expect(lines).toContainEqual(expect.stringMatching(/^ok 6 expect_status linked close 4003: now \w+ \(\d+ ms\)$/));
    expect(lines.at(-2)).toMatch(/^passed 'revoke closes the authenticated connection' in \d+ ms$/);
    expect(lines.at(-1)).toBe('1 passed, 0 failed');
    const root = parseXml(await readFile(junit, 'utf8'));
    expect(root.children[0]?.attributes).toMatchObject({ name: 'examples/scenarios/revoke.yaml', tests: '1', failures: '0' });
  });

  it('exits 1 when a scenario fails, and 2 for an invalid file or a usage error', async () => {
    const dir = await cleanup.dir();
    const broken = path.join(dir, 'broken.yaml');
    await writeFile(broken, 'name: broken\nsteps:\n  - control: {route: /v1/status, expect: {match: {account: null}}, timeout_ms: 50}\n');
    const failed = await run(['scenario', 'run', broken]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^FAIL 1 control GET \/v1\/status: expected body\.account null, got \{.*\} \(after 50 ms\)$/m);
    expect(failed.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');

    const invalid = path.join(dir, 'invalid.yaml');
    await writeFile(invalid, 'name: invalid\nsteps:\n  - wait: {ms: 10, extra: 1}\n');
    const refused = await run(['scenario', 'run', invalid]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`companion scenario: ${invalid}: step 1 (wait): must be a number of milliseconds or {ms}\n`);

    const usage = await run(['scenario', 'run']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe("companion: scenario run needs at least one FILE (see 'companion scenario --help')\n");
    const unknown = await run(['scenario', 'start', 'x.yaml']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown scenario action 'start'");
  });

  it('has help that says what the closing line counts, and is listed in the main help', async () => {
    const help = await run(['help', 'scenario']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("closing line 'N passed, N failed' that counts scenarios (not steps)");
    const main = await run(['--help']);
    expect(main.stdout).toMatch(/^ {2}scenario {5}Run scripted QA flows/m);
  });
});
