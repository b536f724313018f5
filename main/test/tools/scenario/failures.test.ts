/**
 * A broken scenario fails with a message that names the step and the field, skips the rest,
 * and still closes everything it started; an invalid file is exit code 2 before anything runs;
 * JUnit output parses back; secrets never reach the output.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './support.js';
import { parseXml } from './xml-parse.js';

let dir: string;
let previousTmp: string | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'companion-scenario-test-'));
  // The runner's hosts make their temp dirs under os.tmpdir(): here, so the test can see them go.
  previousTmp = process.env['TMPDIR'];
  process.env['TMPDIR'] = path.join(dir, 'tmp');
  await import('node:fs/promises').then((fs) => fs.mkdir(path.join(dir, 'tmp')));
});
afterAll(async () => {
  if (previousTmp === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = previousTmp;
  await rm(dir, { recursive: true, force: true });
});

async function scenarioFile(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

const BROKEN = `name: wrong expectation
steps:
  - game: {name: g, client_id: "1234567890123456789", subscribe: [ACTIVITY_JOIN]}
  - set_activity: {game: g, activity: {state: In the lobby}}
  - command:
      game: g
      cmd: SET_ACTIVITY
      args: {pid: 1, activity: {state: In the lobby, details: Warming up}}
      expect: {data: {state: Somewhere else}}
  - wait: 50
  - expect_event: {game: g, evt: ACTIVITY_JOIN}
---
name: passing neighbour
steps:
  - game: {name: g, client_id: "1234567890123456789"}
  - inject: {kind: join, game: g, secret: a-join-secret, delivered: false}
`;

describe('a broken scenario', () => {
  it('fails at the wrong expectation with a FAIL line naming the field, skips the rest, exit code 1', async () => {
    const file = await scenarioFile('broken.yaml', BROKEN);
    const run = await runInProcess([file]);
    expect(run.code).toBe(1);
    expect(run.err).toEqual([]);
    expect(run.out).toContain("FAIL 3 command SET_ACTIVITY: expected data.state 'Somewhere else', got 'In the lobby'");
    expect(run.out).toContain('skip 4 wait 50 ms');
    expect(run.out).toContain('skip 5 expect_event ACTIVITY_JOIN on g');
    expect(run.out).toContain("FAILED 'wrong expectation': step 3 command SET_ACTIVITY: expected data.state 'Somewhere else', got 'In the lobby'");
    expect(run.out).toContain("passed 'passing neighbour' in " + run.results[1]?.ms + ' ms');
    expect(run.out.at(-1)).toBe('1 passed, 1 failed');
    expect(run.results.map((result) => result.ok)).toEqual([false, true]);
  });

  it('leaves no host, game or temp dir behind, also when it fails', async () => {
    const file = await scenarioFile('broken-cleanup.yaml', BROKEN);
    await runInProcess([file]);
    expect(await readdir(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('says how long it waited for an event that did not come, and what came instead', async () => {
    const file = await scenarioFile(
      'event.yaml',
      `name: wrong event
steps:
  - game: {name: g, client_id: "1234567890123456789", subscribe: [ACTIVITY_JOIN_REQUEST]}
  - inject: {kind: join_request, game: g, user: carol}
  - expect_event: {game: g, evt: ACTIVITY_JOIN_REQUEST, match: {user: {username: bob}}, timeout_ms: 100}
`,
    );
    const run = await runInProcess([file]);
    expect(run.code).toBe(1);
    expect(run.out).toContain("FAIL 3 expect_event ACTIVITY_JOIN_REQUEST on g: no ACTIVITY_JOIN_REQUEST on g within 100 ms; 1 did not match, the last: expected data.user.username 'bob', got 'carol'");
  });

  it('never prints tokens, codes or join secrets, even when an expectation names them', async () => {
    const file = await scenarioFile(
      'secrets.yaml',
      `name: secrets stay out
steps:
  - game: {name: g, client_id: "1234567890123456789", subscribe: [ACTIVITY_JOIN]}
  - inject: {kind: join, game: g, secret: the-join-secret-value}
  - expect_event: {game: g, evt: ACTIVITY_JOIN, match: {secret: another-secret-value}, timeout_ms: 100}
---
name: token stays out
steps:
  - game: {name: g, client_id: "1234567890123456789"}
  - authorize:
      game: g
      answer: approve
      expect_authenticate: {data: {access_token: not-the-token}}
`,
    );
    const run = await runInProcess([file], { json: true });
    const text = run.out.join('\n');
    expect(text).not.toContain('the-join-secret-value');
    expect(text).not.toContain('another-secret-value');
    expect(text).not.toContain('not-the-token');
    expect(text).toContain("expected data.secret [redacted], got [redacted]");
    expect(text).toContain('AUTHENTICATE: expected data.access_token [redacted], got [redacted]');
    expect(run.results.map((result) => result.ok)).toEqual([false, false]);
  });
});

describe('an invalid scenario file', () => {
  it('is exit code 2 with the file, the step and the field, and nothing runs', async () => {
    const file = await scenarioFile(
      'invalid.yaml',
      `name: invalid
steps:
  - game: {name: g, client_id: "1234567890123456789"}
  - expect_event: {game: g, evt: ACTIVITY_JOIN, timeout_ms: soon}
  - expect_evnt: {game: g}
`,
    );
    const run = await runInProcess([file]);
    expect(run.code).toBe(2);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([
      `${file}: step 2 (expect_event): 'timeout_ms' must be a number`,
      `${file}: step 3: unknown step kind 'expect_evnt' (known: game, command, expect_reply, set_activity, expect_event, expect_no_event, expect_status, disconnect, consent, authorize, inject, friend, expect_presence, control, wait, expect_timing, sdk, sdk_call, expect_sdk_event, friend_voice, expect_speaking, call, expect_audio)`,
    ]);
  });

  it('names references that do not hold: games, async replies, labels, saved values, fields of an inject kind', async () => {
    const file = await scenarioFile(
      'references.json',
      JSON.stringify({
        name: 'references',
        steps: [
          { command: { game: 'nobody', cmd: 'GET_GUILDS' } },
          { expect_reply: { ref: 'never' } },
          { expect_timing: { from: 'later', max_ms: 10 } },
          { game: { name: 'g', client_id: '1' }, label: 'later' },
          { inject: { kind: 'gateway', action: 'pause' } },
          { inject: { kind: 'revoke', app: '1', game: 'g' } },
          { command: { game: 'g', cmd: 'ACCEPT_ACTIVITY_INVITE', args: { message_id: '{{invite}}' } } },
          { consent: { policy: 'approve', answer: 'deny' } },
          { sdk_call: { sdk: 'ghost', call: 'getRelationships' } },
          { sdk: { name: 's', user: 'bob', app: '1' } },
          { sdk: { name: 's', user: 'carol', app: '1' } },
          { expect_sdk_event: { sdk: 's', event: 'messageCreated' } },
        ],
      }),
    );
    const run = await runInProcess([file]);
    expect(run.code).toBe(2);
    expect(run.err).toEqual([
      `${file}: step 1 (command): 'game' nobody is not connected by an earlier game step`,
      `${file}: step 2 (expect_reply): 'ref' never is not the async name of an earlier command step`,
      `${file}: step 3 (expect_timing): 'from' later is not the label of an earlier step`,
      `${file}: step 5 (inject): 'duration_ms' is required for action pause`,
      `${file}: step 6 (inject): 'game' is not a field of kind revoke`,
      `${file}: step 7 (command): {{invite}} is not saved by an earlier step (save: {invite: path})`,
      `${file}: step 8 (consent): needs either 'policy' or 'answer'`,
      `${file}: step 9 (sdk_call): 'sdk' ghost is not opened by an earlier sdk step`,
      `${file}: step 11 (sdk): 'name' s is already an open SDK game`,
    ]);
  });

  it('names the scenario of a multi-document file, a bad YAML file, and a missing one', async () => {
    const multi = await scenarioFile('multi.yaml', 'name: first\nsteps: [{wait: 1}]\n---\nname: second\nsteps: [{wait: {ms: -1}}]\n');
    const bad = await scenarioFile('bad.yaml', 'name: [unclosed\n');
    const missing = path.join(dir, 'missing.yaml');
    const run = await runInProcess([multi, bad, missing]);
    expect(run.code).toBe(2);
    expect(run.err[0]).toBe(`${multi}: scenario 2 'second': step 1 (wait): must be a number of milliseconds or {ms}`);
    expect(run.err[1]).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid YAML \\(`));
    expect(run.err[2]).toBe(`${missing}: cannot read it (no such file)`);
  });
});

describe('--junit', () => {
  it('writes well-formed JUnit XML: a testsuite per file, a testcase per scenario, the failure naming the step', async () => {
    const broken = await scenarioFile('junit-broken.yaml', BROKEN);
    const passing = await scenarioFile('junit <passing> & "quoted".yaml', 'name: "waits <a bit> & \'more\'"\nsteps:\n  - wait: 5\n  - expect_timing: {min_ms: 4}\n');
    const junit = path.join(dir, 'junit.xml');
    const run = await runInProcess([broken, passing], { junit });
    expect(run.code).toBe(1);
    const root = parseXml(await readFile(junit, 'utf8'));
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '3', failures: '1', errors: '0' });
    expect(root.children.map((suite) => [suite.name, suite.attributes['name'], suite.attributes['tests'], suite.attributes['failures']])).toEqual([
      ['testsuite', broken, '2', '1'],
      ['testsuite', passing, '1', '0'],
    ]);
    const [first, second] = root.children[0]?.children ?? [];
    expect(first?.attributes).toMatchObject({ name: 'wrong expectation', classname: broken });
    const failure = first?.children.find((child) => child.name === 'failure');
    expect(failure?.attributes['message']).toBe("step 3 command SET_ACTIVITY: expected data.state 'Somewhere else', got 'In the lobby'");
    expect(failure?.text).toContain('skip 5 expect_event ACTIVITY_JOIN on g');
    expect(second?.children.map((child) => child.name)).toEqual(['system-out']);
    const quoted = root.children[1]?.children[0];
    expect(quoted?.attributes['name']).toBe("waits <a bit> & 'more'");
    expect(Number(quoted?.attributes['time'])).toBeGreaterThan(0);
  });
});
