/**
 * The bench's BASELINE: the least a discord-ipc server can do over the same framing. It
 * answers HANDSHAKE with a READY of the same shape as Companion's, echoes every FRAME as
 * `{cmd, data: null, evt: null, nonce}` (one socket.write per reply) and PING with PONG.
 *
 * Usage: node out/bench/src/baseline-server.js <dir> [--echo-activity]   (binds <dir>/discord-ipc-0)
 *
 * --echo-activity (diagnostic, BENCH_BASELINE=echo-activity): reply with `data: args.activity`,
 * so the reply is as big as Companion's but nothing is validated or normalised.
 */
import net from 'node:net';
import path from 'node:path';
import { unlinkSync } from 'node:fs';
import { encodeFrame, FrameDecoder } from '../../rpc/src/framing/frame-codec.js';
import { BENCH_CONFIG, BENCH_USER, OP } from './shared.js';

const dir = process.argv[2];
if (dir === undefined) {
  process.stderr.write('usage: baseline-server <dir>\n');
  process.exit(2);
}
const socketPath = path.join(dir, 'discord-ipc-0');
const echoActivity = process.argv.includes('--echo-activity');
const sockets = new Set<net.Socket>();

function parse(body: Buffer): unknown {
  return body.length === 0 ? null : JSON.parse(body.toString('utf8'));
}

const server = net.createServer((socket) => {
  sockets.add(socket);
  const decoder = new FrameDecoder();
  socket.on('error', () => undefined);
  socket.on('close', () => sockets.delete(socket));
  socket.on('data', (chunk: Buffer) => {
    try {
      for (const frame of decoder.push(chunk)) {
        switch (frame.opcode) {
          case OP.Handshake:
            parse(frame.body);
            socket.write(
              encodeFrame(OP.Frame, {
                cmd: 'DISPATCH',
                data: { v: 1, config: BENCH_CONFIG, user: BENCH_USER },
                evt: 'READY',
                nonce: null,
              }),
            );
            break;
          case OP.Frame: {
            const { cmd, nonce, args } = parse(frame.body) as { cmd?: unknown; nonce?: unknown; args?: { activity?: unknown } };
            const data = echoActivity ? (args?.activity ?? null) : null;
            socket.write(encodeFrame(OP.Frame, { cmd, data, evt: null, nonce }));
            break;
          }
          case OP.Ping:
            socket.write(encodeFrame(OP.Pong, parse(frame.body)));
            break;
          case OP.Close:
            socket.end();
            return;
          default:
            break;
        }
      }
    } catch {
      socket.destroy();
    }
  });
});

function shutdown(): void {
  server.close();
  for (const socket of sockets) socket.destroy();
  try {
    unlinkSync(socketPath);
  } catch {
    // already gone
  }
  process.exit(0);
}

// Die with the bench even if it is killed without a chance to stop us.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) shutdown();
}, 500).unref();

process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
server.listen(socketPath, () => {
  process.stdout.write(`baseline listening on ${socketPath}\n`);
});
