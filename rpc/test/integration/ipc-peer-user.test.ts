import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { OTHER_USER, otherUserUnavailable, run } from '../support/other-user.js';

/** Connects to a Unix socket with no dependencies (the other user may not read node_modules): prints "connected" or the error code. */
const CONNECT_SCRIPT = `
const socket = require('node:net').connect(process.argv[1]);
socket.on('connect', () => { console.log('connected'); socket.destroy(); });
socket.on('error', (error) => console.log(error.code));
`;

const servers: TestServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the IPC socket: same OS user only', () => {
  const unavailable = otherUserUnavailable();
  if (unavailable !== null) console.log(`skipping the other-OS-user socket test: ${unavailable}`);

  it.skipIf(unavailable !== null)(`in a shared sticky directory (like /tmp) the 0600 socket refuses ${OTHER_USER}, and we connect`, async () => {
    const shared = await mkdtemp(path.join(os.tmpdir(), 'companion-shared-'));
    dirs.push(shared);
    await chmod(shared, 0o1777);
    const server = await startTestServer({}, shared);
    servers.push(server);
    expect((await stat(server.path)).mode & 0o777).toBe(0o600);
    expect(await run('runuser', ['-u', OTHER_USER, '--', process.execPath, '-e', CONNECT_SCRIPT, server.path])).toMatchObject({ code: 0, stdout: 'EACCES' });
    expect(await run(process.execPath, ['-e', CONNECT_SCRIPT, server.path])).toMatchObject({ code: 0, stdout: 'connected' });
  });

  it.skipIf(unavailable !== null)(`in a private 0700 directory ${OTHER_USER} cannot even reach the socket`, async () => {
    const own = await mkdtemp(path.join(os.tmpdir(), 'companion-own-'));
    dirs.push(own);
    await chmod(own, 0o700);
    const server = await startTestServer({}, own);
    servers.push(server);
    // Opened up on purpose: here only the directory stands between the other user and the socket.
    await chmod(server.path, 0o666);
    expect(await run('runuser', ['-u', OTHER_USER, '--', process.execPath, '-e', CONNECT_SCRIPT, server.path])).toMatchObject({ code: 0, stdout: 'EACCES' });
    expect(await run(process.execPath, ['-e', CONNECT_SCRIPT, server.path])).toMatchObject({ code: 0, stdout: 'connected' });
  });
});
