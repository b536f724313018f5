import type { Client } from '../../../../rpc/client/index.js';

/** The RPC error code a command sent as is over the SDK's connection gets, or 'ok'. */
export async function rawCode(client: Client, cmd: string, args: unknown): Promise<number | 'ok'> {
  try {
    await client.connection.request(cmd, args);
    return 'ok';
  } catch (error) {
    return (error as { code?: number }).code ?? -1;
  }
}
