// Runs on node.exe under Wine (issue 30 §2, detection-windows.test.ts): the built GameDetector
// with defaultProcessSource() (the Windows one on win32) and the list in the JSON file argv[3],
// scanning every 500 ms; prints one line a scan and an event. It stops when the file argv[5]
// appears, or after argv[4] ms. argv[2] is the folder of the built detection modules.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [, , folder, listFile, lifetime, stopFile] = process.argv;
const load = (name) => import(pathToFileURL(path.join(folder, name)).href);
const { GameDetector } = await load('game-detector.js');
const { defaultProcessSource } = await load('default-process-source.js');

const print = (line) => process.stdout.write(`${line}\n`);
const source = defaultProcessSource();
print(`SOURCE ${source?.constructor.name ?? 'none'}`);
if (source === null) process.exit(3);

const scan = source.scan.bind(source);
let scans = 0;
source.scan = async () => {
  const result = await scan();
  scans += 1;
  print(`SCAN ${scans} ${result.complete ? 'complete' : 'incremental'} +${result.processes.length} -${result.gone.length}`);
  return result;
};

const detector = new GameDetector({ source, interval: 500, onError: (error) => print(`ERROR ${String(error?.message ?? error)}`) });
detector.on('start', (game) => print(`START ${JSON.stringify(game)}`));
detector.on('end', (game) => print(`END ${JSON.stringify(game)}`));
detector.setList(JSON.parse(readFileSync(listFile, 'utf8')));
detector.start();

const end = () => {
  clearInterval(poll);
  clearTimeout(timeout);
  detector.stop();
  source.close?.();
  print('STOPPED');
};
const poll = setInterval(() => existsSync(stopFile) && end(), 200);
const timeout = setTimeout(end, Number(lifetime));
