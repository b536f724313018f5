import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const BUILT = new URL('../../../../out/main/src/host/compose/background-priority.js', import.meta.url).href;

describe.runIf(process.platform === 'linux')('background threads yield to the main thread', () => {
  it('every thread but the main one runs at nice 10; the main thread and threads made later keep theirs', () => {
    // A process of its own: priorities and V8 flags are process-wide.
    const script = `
      const fs = await import('node:fs');
      const { backgroundThreadsYield } = await import(${JSON.stringify(BUILT)});
      const nice = (tid) => Number(fs.readFileSync('/proc/self/task/' + tid + '/stat', 'utf8').split(') ')[1].split(' ')[16]);
      const before = fs.readdirSync('/proc/self/task');
      const mainBefore = nice(process.pid);
      backgroundThreadsYield();
      await fs.promises.readFile('/proc/self/stat'); // the libuv pool starts now, made by the main thread
      const after = fs.readdirSync('/proc/self/task');
      console.log(JSON.stringify({
        mainBefore,
        main: nice(process.pid),
        background: before.filter((t) => Number(t) !== process.pid).map(nice),
        later: after.filter((t) => !before.includes(t)).map(nice),
      }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    const { mainBefore, main, background, later } = JSON.parse(run.stdout) as { mainBefore: number; main: number; background: number[]; later: number[] };
    expect(main).toBe(mainBefore);
    expect(background.length).toBeGreaterThan(0);
    expect(background.every((n) => n === 10)).toBe(true);
    expect(later.every((n) => n === mainBefore)).toBe(true);
  });
});
