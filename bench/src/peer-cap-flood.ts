/**
 * What the per-program connection cap costs and buys (issue 25 §4.3): one program floods the
 * RPC server with connections, then another program (a separate Node process) connects and
 * reports how long its READY took. Prints one JSON line. Not part of `npm run bench`.
 *
 * Usage: node out/bench/src/peer-cap-flood.js [connections (default 1100)]
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { encodeFrame, listenIpc, RpcServer } from '../../rpc/src/index.js';
import { BENCH_CONFIG, BENCH_USER, CLIENT_ID, OP } from './shared.js';

const count = Number(process.argv[2] ?? 1100);
const dir = await mkdtemp(path.join(os.tmpdir(), 'peer-cap-flood-'));
const server = new RpcServer({ identity: () => ({ user: BENCH_USER, config: BENCH_CONFIG }) });
const listener = await listenIpc({ dir, onConnection: (socket) => server.attach(socket) });
const handshake = encodeFrame(OP.Handshake, { v: 1, client_id: CLIENT_ID });

const sockets: net.Socket[] = [];

/** Opens one connection and resolves with the opcode of the first frame it gets (or 'failed'). */
function connectOnce(): Promise<number | 'failed'> {
  return new Promise((resolve) => {
    const socket = net.connect(listener.path, () => socket.write(handshake));
    sockets.push(socket);
    socket.once('data', (chunk: Buffer) => resolve(chunk.readUInt32LE(0)));
    socket.on('error', () => resolve('failed'));
  });
}

const floodStart = performance.now();
const outcomes = await Promise.all(Array.from({ length: count }, connectOnce));
const floodMs = Math.round(performance.now() - floodStart);

// The other program: a plain Node process that handshakes and times its READY.
const OTHER = `
const net = require('node:net');
const body = Buffer.from(JSON.stringify({ v: 1, client_id: '${CLIENT_ID}' }));
const header = Buffer.alloc(8);
header.writeUInt32LE(0, 0);
header.writeUInt32LE(body.length, 4);
const started = performance.now();
const socket = net.connect(process.argv[1], () => socket.write(Buffer.concat([header, body])));
socket.once('data', (chunk) => {
  process.stdout.write(JSON.stringify({ opcode: chunk.readUInt32LE(0), ms: Math.round((performance.now() - started) * 10) / 10 }));
  process.exit(0);
});
`;
const other = await new Promise<{ opcode: number; ms: number }>((resolve, reject) => {
  execFile(process.execPath, ['-e', OTHER, listener.path], (error, stdout) => (error === null ? resolve(JSON.parse(stdout) as { opcode: number; ms: number }) : reject(error)));
});

process.stdout.write(
  `${JSON.stringify({
    attempted: count,
    ready: outcomes.filter((outcome) => outcome === OP.Frame).length,
    refused: outcomes.filter((outcome) => outcome === OP.Close).length,
    failed: outcomes.filter((outcome) => outcome === 'failed').length,
    floodMs,
    otherProgram: { ready: other.opcode === OP.Frame, connectToReadyMs: other.ms },
  })}\n`,
);
for (const socket of sockets) socket.destroy();
await server.closeAll();
await listener.close();
await rm(dir, { recursive: true, force: true });
process.exit(0);
