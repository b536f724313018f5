// A game on the npm `discord-rpc` client library, run as its own process under the Node being
// tested (node-versions.test.ts): it finds Companion's socket through XDG_RUNTIME_DIR, prints
// one JSON line at READY and one once SET_ACTIVITY is answered, then exits.
//
//   node discord-rpc-game.mjs CLIENT_ID      (XDG_RUNTIME_DIR: Companion's runtime directory)
import DiscordRPC from 'discord-rpc';

const [clientId] = process.argv.slice(2);
const client = new DiscordRPC.Client({ transport: 'ipc' });
const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const timer = setTimeout(() => {
  say({ step: 'timeout' });
  process.exit(2);
}, 15_000);

try {
  await client.connect(clientId);
  say({ step: 'ready', user: client.user, node: process.versions.node });
  const activity = await client.setActivity({ state: `On Node ${process.versions.node}`, details: 'A game on discord-rpc' }, process.pid);
  say({ step: 'activity', state: activity.state });
  clearTimeout(timer);
  process.exit(0);
} catch (error) {
  say({ step: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
