// One npm discord-rpc client in its own worker thread. The library keeps its IPC frame parser
// state in a module-level object, so clients sharing a module instance corrupt each other;
// a worker has its own module instance.
//
// workerData: { dir, clientId, index, pid }
// Posts { type: 'ready', user } after READY, { type: 'activity', result } after SET_ACTIVITY
// resolved (or { type: 'error', message } on any failure); on the message 'close' it destroys
// the client and posts { type: 'closed' }.
import { parentPort, workerData } from 'node:worker_threads';
import DiscordRPC from 'discord-rpc';

const { dir, clientId, index, pid } = workerData;
process.env.XDG_RUNTIME_DIR = dir;

const port = parentPort;
if (port === null) throw new Error('discord-rpc-worker.mjs must run as a worker thread');

const client = new DiscordRPC.Client({ transport: 'ipc' });

try {
  await client.connect(clientId);
  port.postMessage({ type: 'ready', user: client.user });
  const result = await client.setActivity(
    {
      state: `Player ${index} in lobby`,
      details: `Worker client #${index}`,
      partyId: `party-${index}`,
      partySize: 1,
      partyMax: 4,
    },
    pid,
  );
  port.postMessage({ type: 'activity', result });
} catch (error) {
  port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
}

port.on('message', (message) => {
  if (message !== 'close') return;
  const socket = client.transport.socket;
  const done = () => {
    port.postMessage({ type: 'closed' });
    port.close();
  };
  if (socket === null || socket.destroyed) return done();
  client.destroy().then(done, (error) => {
    port.postMessage({ type: 'error', message: String(error) });
    done();
  });
});
