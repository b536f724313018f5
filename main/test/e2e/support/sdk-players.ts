import { expect } from 'vitest';
import { AuthorizationArgs, Client, type ClientOptions } from '../../../../rpc/client/index.js';
import { DEMO_APP_ID, eventually, World, type Player, type TestHostOptions } from './world.js';

/**
 * The set-up of the SDK's two-player tests, once: an emulator, a host per player (alice and
 * bob by default, each approving authorization), and games on the SDK (`companion/client`)
 * next to a player's Companion, as docs/sdk.md's "Two players on one machine" runs them.
 * Every game made here is disconnected, and the world closed, by close().
 */
export class SdkPlayers {
  private readonly clients: Client[] = [];

  private readonly byName = new Map<string, Player>();

  private constructor(readonly world: World) {}

  static async start(names: readonly string[] = ['alice', 'bob'], hostOptions: Partial<TestHostOptions> = { consentPolicy: 'approve' }): Promise<SdkPlayers> {
    const table = new SdkPlayers(await World.start());
    for (const name of names) await table.addPlayer(name, hostOptions);
    return table;
  }

  /** One more player (a demo user of the emulator) with a Companion of their own. */
  async addPlayer(name: string, hostOptions: Partial<TestHostOptions> = {}): Promise<Player> {
    const player = await this.world.player(name, hostOptions);
    this.byName.set(name, player);
    return player;
  }

  player(name: string): Player {
    const player = this.byName.get(name);
    if (player === undefined) throw new Error(`no player ${name} at this table`);
    return player;
  }

  /** The platform user id of the player's Companion account. */
  userId(name: string): string {
    const id = this.player(name).host.session.user?.id;
    if (id === undefined) throw new Error(`${name}'s Companion is not signed in`);
    return id;
  }

  /** A client the test made itself, disconnected by close() too. */
  track(client: Client): Client {
    this.clients.push(client);
    return client;
  }

  /** A game of `applicationId` that finds the player's Companion (their runtime directory), not connected yet; its log is silent. */
  game(name: string, applicationId = DEMO_APP_ID, options: ClientOptions = {}): Client {
    const client = new Client({ env: { XDG_RUNTIME_DIR: this.player(name).runtimeDir }, logger: { sink: () => undefined }, ...options });
    this.clients.push(client);
    client.setApplicationId(applicationId);
    return client;
  }

  /** A game connected to the player's Companion. */
  async connected(name: string, applicationId = DEMO_APP_ID, options: ClientOptions = {}): Promise<Client> {
    const client = this.game(name, applicationId, options);
    const result = await client.connect();
    expect(result.successful, result.error).toBe(true);
    return client;
  }

  /** A connected game that authorized through Companion (the policy approves), holds its token, and whose platform session is ready. */
  async signedIn(name: string, applicationId = DEMO_APP_ID, scopes = 'openid sdk.social_layer'): Promise<Client> {
    const client = await this.connected(name, applicationId);
    const verifier = client.createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs();
    args.setScopes(scopes);
    args.setCodeChallenge(verifier.challenge());
    const { code } = await client.authorize(args);
    const { token } = await client.getToken(applicationId, code ?? '', verifier.verifier(), null);
    expect((await client.updateToken('Bearer', token?.accessToken ?? '')).successful).toBe(true);
    await eventually(() => client.getPlatformStatus() === 'ready', `${name}'s game: its platform session READY`, 10_000);
    return client;
  }

  /** A Steam ticket of the emulator's test provider for `steamId` (what a game's Steam login gives it), to trade with getProvisionalToken. */
  async steamTicket(steamId: string, displayName = 'Guest'): Promise<string> {
    const response = await fetch(`${this.world.platform.url}/_emulator/external-tokens`, {
      method: 'POST',
      headers: { Authorization: `Admin ${this.world.platform.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'STEAM_SESSION_TICKET', external_user_id: steamId, display_name: displayName }),
    });
    expect(response.ok).toBe(true);
    return ((await response.json()) as { token: string }).token;
  }

  async close(): Promise<void> {
    for (const client of this.clients.splice(0)) await client.disconnect();
    await this.world.close();
  }
}
