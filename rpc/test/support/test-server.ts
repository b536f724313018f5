import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { listenIpc, RpcServer, type IpcListener, type ReadyIdentity, type RpcServerOptions } from '../../src/index.js';

export const TEST_IDENTITY: ReadyIdentity = {
  user: {
    id: '100000000000000001',
    username: 'tester',
    discriminator: '0',
    global_name: 'Test User',
    avatar: null,
    avatar_decoration_data: null,
    bot: false,
    flags: 0,
    premium_type: 0,
  },
  config: { cdn_host: 'cdn.example.test', api_endpoint: '//api.example.test/api', environment: 'production' },
};

export interface TestServer {
  readonly dir: string;
  readonly server: RpcServer;
  readonly listener: IpcListener;
  readonly path: string;
  close(): Promise<void>;
}

export async function makeTempDir(prefix = 'companion-test-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/** An RpcServer on a real Unix socket in a fresh temp dir. */
export async function startTestServer(
  options: Partial<RpcServerOptions> = {},
  dir?: string,
): Promise<TestServer> {
  const directory = dir ?? (await makeTempDir());
  const server = new RpcServer({ identity: () => TEST_IDENTITY, ...options });
  const listener = await listenIpc({ dir: directory, onConnection: (socket) => server.attach(socket) });
  return {
    dir: directory,
    server,
    listener,
    path: listener.path,
    async close() {
      const listenerClosed = listener.close();
      await server.closeAll();
      await listenerClosed;
      if (dir === undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}
