import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, openUi, screenshot, test } from './support/harness.js';
import { DEMO_APP_ID, DEMO_APP_NAME, ROOT, startHost, type HostProcess } from './support/processes.js';

/**
 * Issue 30 §3: the player decides. A real host scans /proc; real programs run under names a
 * test can spawn (copies of /bin/sleep): the demo app's executable (on the platform's list) and
 * one the list does not know, which the player names as a game ("Add it").
 */
const DEMO_EXECUTABLE = 'companion-demo-game';
const OWN_EXECUTABLE = 'issue30-own-game';

const children: ChildProcess[] = [];
const dirs: string[] = [];
test.afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** /bin/sleep copied as `name` and started. */
function run(name: string): ChildProcess {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'companion-game-'));
  dirs.push(dir);
  const file = path.join(dir, name);
  copyFileSync('/bin/sleep', file);
  chmodSync(file, 0o755);
  const child = spawn(file, ['120'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** `companion control games --json` against the host: what QA sees. */
async function controlGames(host: HostProcess): Promise<{ games: Record<string, unknown>[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'bin/companion.js'), 'control', 'games', '--json', '--runtime-dir', host.runtimeDir]);
  return JSON.parse(stdout) as { games: Record<string, unknown>[] };
}

test.describe('issue 30 §3: Detected games in Settings', () => {
  // The test spawns copies of /bin/sleep and the demo app's Linux executable.
  test.skip(process.platform !== 'linux', 'the test runs Linux programs (copies of /bin/sleep)');
  test('what was detected, when and from which executable; a switch per game and a global one; "Add it" for a program the list does not know', async ({ page }) => {
    const host = await startHost();
    const demo = run(DEMO_EXECUTABLE);
    run(OWN_EXECUTABLE);
    await openUi(page, host, 'settings');
    const card = page.getByTestId('detection-settings');
    await expect(card.getByRole('heading', { name: 'Detected games' })).toBeVisible();
    await expect(card.getByTestId('detection-list')).toContainText('Companion knows 1 game (list updated');

    const row = card.getByTestId('detected-game').and(page.locator(`[data-application-id="${DEMO_APP_ID}"]`)).first();
    await expect(row).toHaveAttribute('data-state', 'shown');
    await expect(row).toContainText(DEMO_APP_NAME);
    await expect(row).toContainText('friends see you playing it');
    await expect(row.getByTestId('detected-game-executable')).toHaveText(new RegExp(`/${DEMO_EXECUTABLE}$`));
    await expect(row).toContainText('detected');
    expect((await controlGames(host)).games).toContainEqual(expect.objectContaining({ detected: true, application_id: DEMO_APP_ID, pid: demo.pid, showing: 'shown' }));

    // The per-game switch: the game stays listed, friends no longer see it.
    await row.getByTestId('detected-game-shown').click();
    await expect(row).toHaveAttribute('data-state', 'excluded');
    await expect(row.getByTestId('detected-game-shown')).not.toBeChecked();
    expect((await controlGames(host)).games).toContainEqual(expect.objectContaining({ application_id: DEMO_APP_ID, showing: 'excluded' }));
    await row.getByTestId('detected-game-shown').click();
    await expect(row).toHaveAttribute('data-state', 'shown');

    // The global switch: the scanner stops, the game ends; on again, it is found again.
    await card.getByTestId('detection-enabled').click();
    await expect(card.getByTestId('detection-enabled')).not.toBeChecked();
    await expect(card.getByTestId('detected-game').and(page.locator('[data-state="shown"]'))).toHaveCount(0);
    expect((await controlGames(host)).games.filter((game) => game['detected'] === true)).toEqual([]);
    await card.getByTestId('detection-enabled').click();
    await expect(card.getByTestId('detected-game').and(page.locator(`[data-application-id="${DEMO_APP_ID}"][data-state="shown"]`))).toHaveCount(1);

    // "Add it": the program the list does not know, named by the player, is detected as a game of their own.
    await card.getByTestId('detection-list-programs').click();
    const program = card.getByTestId('running-program').and(page.locator(`[data-executable="${OWN_EXECUTABLE}"]`));
    await expect(program).toHaveCount(1);
    await expect(card.getByTestId('running-program').and(page.locator(`[data-executable="${DEMO_EXECUTABLE}"]`))).toHaveCount(0);
    await program.getByTestId('running-program-name').fill('My Own Game');
    await program.getByTestId('running-program-add').click();
    await expect(card.getByTestId('custom-game')).toContainText('My Own Game');
    const own = card.getByTestId('detected-game').filter({ hasText: 'My Own Game' }).first();
    await expect(own).toHaveAttribute('data-state', 'shown');
    await expect(own).toContainText('a game you added');
    await expect(own.getByTestId('detected-game-executable')).toHaveText(new RegExp(`/${OWN_EXECUTABLE}$`));
    expect((await controlGames(host)).games).toContainEqual(expect.objectContaining({ detected: true, application_name: 'My Own Game', custom: true }));
    await screenshot(page, 'issue-30-detected-games');

    // Kept in the host's settings: a reload shows the same.
    await page.reload();
    await expect(page.getByTestId('detection-settings').getByTestId('custom-game')).toContainText('My Own Game');
  });
});

test.describe('issue 30 §3: detected games on the Games screen', () => {
  test.skip(process.platform !== 'linux', 'the test runs Linux programs (copies of /bin/sleep)');
  test('a game running without Rich Presence is listed with what friends see, since when and from which program; it leaves when it exits', async ({ page }) => {
    const host = await startHost();
    await openUi(page, host, 'games');
    await expect(page.getByTestId('games-empty')).toBeVisible();
    const demo = run(DEMO_EXECUTABLE);
    const row = page.getByTestId('games-detected-game').and(page.locator(`[data-application-id="${DEMO_APP_ID}"]`));
    await expect(row).toHaveAttribute('data-state', 'shown');
    await expect(row).toContainText(`${DEMO_APP_NAME}: friends see you playing it`);
    await expect(row).toContainText(`/${DEMO_EXECUTABLE}`);
    await expect(page.getByTestId('games-empty')).toHaveCount(0);
    demo.kill('SIGKILL');
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId('games-empty')).toBeVisible();
  });
});
