import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ActivityView, Snapshot } from '../../preload/src/contract';
import { App } from '../src/App';
import { ConsentOverlay } from '../src/screens/ConsentPrompt';
import { joinability } from '../../common/src/joinable';
import { BlockedUsers, PendingRequests } from '../src/screens/FriendRequests';
import { FriendsScreen } from '../src/screens/FriendsScreen';
import { GamesScreen } from '../src/screens/GamesScreen';
import { GrantsScreen } from '../src/screens/GrantsScreen';
import { InspectorScreen } from '../src/screens/InspectorScreen';
import { OriginRequests } from '../src/screens/OriginRequests';
import { SettingsScreen } from '../src/screens/SettingsScreen';
import { createAppStore, type AppStore } from '../src/store/app-store';
import { StoreContext } from '../src/store/react';
import { CONSENT, createFakeBridge, frame, snapshot } from './fake-bridge';

async function storeWith(patch: Partial<Snapshot>): Promise<AppStore> {
  const store = createAppStore(createFakeBridge(snapshot(patch)));
  await store.started;
  return store;
}

/** Server rendering reads a store's initial state (zustand's getServerSnapshot): render the current one. */
function render(store: AppStore, node: ReactNode): string {
  const current: AppStore = { ...store, getInitialState: () => store.getState() };
  // React separates adjacent text nodes with empty comments: drop them to assert on the text.
  return renderToString(<StoreContext.Provider value={current}>{node}</StoreContext.Provider>).replaceAll('<!-- -->', '');
}

const count = (html: string, needle: string): number => html.split(needle).length - 1;

/** What a player reads without opening a Details disclosure (issue 26 §7: developer facts live there). */
const outsideDetails = (html: string): string => html.replace(/<details[\s\S]*?<\/details>/g, '');

const FRIEND = { id: '7', username: 'friend', discriminator: '0', global_name: 'Friend', avatar: null };

const HOSTILE: ActivityView = {
  name: '<script>alert("name")</script>',
  type: 0,
  application_id: '42',
  details: '<img src=x onerror=alert(1)>',
  details_url: 'javascript:alert(1)',
  state: 'In a party',
  state_url: 'data:text/html,<script>alert(2)</script>',
  timestamps: { start: Date.now() - 65_000 },
  assets: { large_image: 'javascript:alert(3)', large_text: '"><script>x</script>', small_image: 'https://cdn.example/small.png' },
  party: { id: 'p1', size: [2, 4] },
  buttons: [
    { label: 'Evil', url: 'javascript:alert(4)' },
    { label: 'Site', url: 'https://game.example/' },
  ],
};

/** The Friends screen's rule for its Join / Ask to join buttons, on the contract's activity. */
const joinAction = (activity: ActivityView): ReturnType<typeof joinability> => joinability(activity);

describe('screens (server-rendered, text only)', () => {
  it('consent prompt: name, badge, account, scopes with the umbrella expansion, install context, controls', async () => {
    const store = await storeWith({ consent_requests: [CONSENT] });
    const html = render(store, <ConsentOverlay />);
    expect(html).toContain('data-testid="consent-prompt"');
    expect(html).toContain('role="dialog"');
    expect(html).toContain('aria-modal="true"');
    expect(html).toMatch(/data-testid="consent-app-name">Space Game</);
    expect(html).toContain('data-testid="consent-unverified"');
    expect(html).toContain('Player One');
    expect(count(html, 'data-testid="consent-scope"')).toBe(3);
    expect(html).toContain('Know who your friends are');
    // Scope codes, the expansion and the install context's code are developer facts, behind Details.
    expect(html).toContain('sdk.social_layer_presence: friends and presence for the game');
    expect(html).toContain('integration_type 1: user install');
    expect(outsideDetails(html)).not.toContain('sdk.social_layer');
    expect(outsideDetails(html)).toContain('The app is added to your account');
    expect(html).toContain('data-testid="consent-switch-account"');
    for (const id of ['consent-approve', 'consent-deny', 'consent-dismiss']) expect(html).toContain(`data-testid="${id}"`);
    // An icon given as another origin's URL is not loaded (issue 26 §10: pictures come through the host only).
    expect(html).not.toContain('src="https://cdn.example/icon.png"');
  });

  it('consent prompt: no prompt without a visible request; an unsafe icon is not loaded; hostile names are text', async () => {
    expect(render(await storeWith({ consent_requests: [{ ...CONSENT, state: 'queued' }] }), <ConsentOverlay />)).toBe('');
    const store = await storeWith({
      consent_requests: [{ ...CONSENT, application: { id: '1', name: '<b>Bold</b>', icon: 'javascript:alert(1)', verified: true }, integration_type: null }],
    });
    const html = render(store, <ConsentOverlay />);
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('<b>Bold</b>');
    expect(html).toContain('&lt;b&gt;Bold&lt;/b&gt;');
    expect(html).toContain('data-testid="consent-verified"');
    // No install context given: nothing to tell the player; the developer fact says so.
    expect(outsideDetails(html)).not.toContain('data-testid="consent-install-context"');
    expect(html).toContain('integration_type not given');
  });

  it('games: a hostile activity renders as text with only http(s) links and images', async () => {
    const store = await storeWith({
      games: [{ connection_id: 'c1', client_id: '42', application_name: 'Space Game', pid: 4242, transport: 'ipc', client_library: { library: 'pypresence', reason: '<b>nonces</b>' }, activity: HOSTILE, connected_at: Date.now(), link_requests: true }],
    });
    const html = render(store, <GamesScreen />);
    expect(count(html, 'data-testid="game-card"')).toBe(1);
    expect(html).toContain('4242');
    expect(html).toContain('pypresence (Python)');
    expect(html).toContain('IPC socket');
    expect(html).not.toContain('<b>nonces</b>');
    expect(html).toContain('data-testid="game-link-account"');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img src=x/i);
    expect(html).not.toMatch(/(href|src)="(javascript|data:text)/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('href="https://game.example/"');
    expect(html).toContain(`src="cdn/external/${Buffer.from('https://cdn.example/small.png').toString('base64url')}"`);
    expect(html).toMatch(/1:0\d elapsed/);
    expect(html).toContain('(2 of 4)');
  });

  it('games: empty state', async () => {
    expect(render(await storeWith({}), <GamesScreen />)).toContain('data-testid="games-empty"');
  });

  it('friends: presence, Ask to join vs Join (public party), incoming join requests and invites', async () => {
    const store = await storeWith({
      friends: [
        { user: FRIEND, presence: { status: 'online', activities: [{ ...HOSTILE, flags: 2 }] } },
        { user: { ...FRIEND, id: '8', username: 'pub' }, presence: { status: 'idle', activities: [{ ...HOSTILE, flags: 64 | 2 }] } },
        { user: { ...FRIEND, id: '9', username: 'solo' }, presence: { status: 'dnd', activities: [{ name: 'Solo' }] } },
        // A party without a join secret behind it (no JOIN flag): no button.
        { user: { ...FRIEND, id: '10', username: 'nosecret' }, presence: { status: 'online', activities: [HOSTILE] } },
      ],
      join_requests: [{ id: 'jr1', user: FRIEND, application_id: '42', received_at: Date.now() }],
      invites: [{ id: 'inv1', user: FRIEND, application_id: '42', activity: HOSTILE, content: 'Come <b>play</b> with us', received_at: Date.now(), expires_at: Date.now() + 60_000, valid: true }],
    });
    const html = render(store, <FriendsScreen />);
    expect(count(html, 'data-testid="friend-row"')).toBe(4);
    expect(count(html, 'data-testid="friend-ask-to-join"')).toBe(1);
    expect(count(html, 'data-testid="friend-join"')).toBe(1);
    expect(count(html, 'data-testid="join-request-row"')).toBe(1);
    expect(count(html, 'data-testid="invite-row"')).toBe(1);
    expect(html).not.toMatch(/<script/i);
  });

  it('friends: Add friend, Pending with its count (Accept / Ignore, Cancel), Blocked with Unblock, More on each friend', async () => {
    const user = (id: string, username: string) => ({ ...FRIEND, id, username, global_name: null });
    const store = await storeWith({
      friends: [{ user: FRIEND, presence: { status: 'online', activities: [] } }],
      relationships: [
        { user: user('20', 'zed'), type: 'incoming' },
        { user: user('21', 'eve'), type: 'outgoing' },
        { user: user('22', '<b>mallory</b>'), type: 'blocked' },
      ],
    });
    const html = render(store, <FriendsScreen />);
    expect(html).toContain('data-testid="add-friend-input"');
    expect(html).toMatch(/<label for="add-friend-username">Their username<\/label>/);
    // The tabs: Online selected (a friend is online), Pending counting the request waiting for an answer.
    expect(html).toMatch(/role="tab" id="friends-tab-online" aria-selected="true"/);
    expect(html).toMatch(/data-testid="friends-tab-pending-count">1<span class="visually-hidden"> waiting for your answer/);
    expect(count(html, 'role="tab"')).toBe(4);
    // What the Pending and Blocked tabs list.
    const relationships = store.getState().data!.relationships;
    const tabs = render(store, <><PendingRequests relationships={relationships} /><BlockedUsers relationships={relationships} /></>);
    expect(tabs).toContain('Pending — <span data-testid="pending-count">2</span>');
    expect(tabs).toContain('Blocked — <span data-testid="blocked-count">1</span>');
    expect(count(tabs, 'data-testid="relationship-row"')).toBe(3);
    expect(count(tabs, 'data-testid="relationship-accept"')).toBe(1);
    expect(count(tabs, 'data-testid="relationship-ignore"')).toBe(1);
    expect(count(tabs, 'data-testid="relationship-cancel"')).toBe(1);
    expect(count(tabs, 'data-testid="relationship-unblock"')).toBe(1);
    expect(tabs).toContain('Incoming friend request');
    expect(tabs).toContain('Outgoing friend request');
    expect(tabs).toContain('&lt;b&gt;mallory&lt;/b&gt;');
    // Searched: only who matches, or the empty search's words.
    expect(count(render(store, <BlockedUsers relationships={relationships} query="MALL" />), 'data-testid="relationship-row"')).toBe(1);
    expect(render(store, <PendingRequests relationships={relationships} query="nobody" />)).toContain('No one with that name');
    // Remove friend and Block wait behind More (and a confirmation).
    expect(count(html, 'data-testid="friend-more"')).toBe(1);
    expect(html).toContain('aria-label="More for Friend"');
    expect(html).not.toContain('data-testid="friend-remove"');
    // Incoming friend requests count on the Friends button.
    expect(render(store, <App />)).toMatch(/data-testid="friends-badge">1<span class="visually-hidden"> waiting for an answer/);
  });

  it('joinAction: the platform\'s rule: a game, a party with an id and a free slot, the JOIN flag; flags & 64 joins at once', () => {
    expect(joinAction({ name: 'x' })).toBeNull();
    expect(joinAction({ application_id: '1', party: { id: 'p', size: [4, 4] }, flags: 2 })).toBeNull();
    // No join secret behind it (no JOIN flag): nothing to offer, the platform would refuse.
    expect(joinAction({ application_id: '1', party: { id: 'p', size: [1, 4] } })).toBeNull();
    expect(joinAction({ application_id: '1', party: { id: 'p' }, flags: 2 })).toBeNull();
    expect(joinAction({ application_id: '1', party: { id: 'p', size: [1, 4] }, flags: 2 })).toBe('ask');
    expect(joinAction({ application_id: '1', party: { id: 'p', size: [1, 0] }, flags: 2 })).toBe('ask');
    expect(joinAction({ application_id: '1', party: { id: 'p', size: [1, 4] }, flags: 64 | 2 })).toBe('join');
  });

  it('authorized apps: grants with scopes and Revoke; empty state', async () => {
    const store = await storeWith({
      grants: [{ id: 'g1', application: { id: '42', name: 'Space Game', icon: null }, scopes: ['openid', 'identify'], descriptions: [{ scope: 'openid', text: 'Know who you are (OpenID)' }, { scope: 'identify', text: 'See your username and avatar' }], integration_type: 1, created_at: '2026-11-20T10:00:00.000Z' }],
    });
    const html = render(store, <GrantsScreen />);
    expect(count(html, 'data-testid="grant-row"')).toBe(1);
    expect(count(html, 'data-testid="grant-revoke"')).toBe(1);
    // The scopes in words (the consent prompt's), with their ids beside them.
    expect(count(html, 'data-testid="grant-scope"')).toBe(2);
    expect(html).toContain('See your username and avatar');
    expect(render(await storeWith({}), <GrantsScreen />)).toContain('data-testid="grants-empty"');
  });

  it('inspector: 10,000 frames render only a window of rows', async () => {
    const store = await storeWith({});
    store.getState().ingestFrames(Array.from({ length: 10_000 }, (_, i) => frame(i + 1, { nonce: `n${i >> 1}`, direction: i % 2 === 0 ? 'in' : 'out' })));
    const html = render(store, <InspectorScreen />);
    const rows = count(html, 'data-testid="inspector-row"');
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThan(60);
    expect(html).toContain('10000 of 10000 rows');
    expect(html).toContain('1 ms');
  });

  it('settings: account, platform URL read-only, gateway, consent policy and always-ask', async () => {
    const html = render(await storeWith({}), <SettingsScreen />);
    expect(html).toContain('data-testid="account-user"');
    expect(html).toContain('data-testid="account-logout"');
    expect(html).toMatch(/value="http:\/\/127\.0\.0\.1:7000" readOnly=""|readOnly="" [^>]*value="http:\/\/127\.0\.0\.1:7000"/);
    expect(html).toContain('data-testid="settings-consent-policy"');
    expect(html.match(/<input[^>]*data-testid="settings-always-ask"[^>]*>/)?.[0]).toContain('checked=""');
    expect(html).toContain('data-testid="settings-gateway-status">ready<');
    // Headless: start at login is shown but disabled, with the reason; the log level is a select.
    expect(html.match(/<input[^>]*data-testid="settings-start-at-login"[^>]*>/)?.[0]).toContain('disabled=""');
    expect(html).toContain('only in the desktop app');
    expect(html).toMatch(/<option value="info" selected="">info<\/option>/);
  });

  it('issue 25 §1.6: a banned account is said plainly: a banner, the gateway badge, a note under Account', async () => {
    const base = snapshot();
    const store = await storeWith({ status: { ...base.status, gateway: { status: 'banned', detail: 'the platform account is banned (This account is banned); signing in again in 4 s' } } });
    const app = render(store, <App />);
    expect(app).toContain('data-testid="account-banned"');
    expect(app).toContain('Your platform account is banned');
    expect(app).toContain('class="gateway gateway-banned"');
    const settings = render(store, <SettingsScreen />);
    expect(settings).toContain('data-testid="account-banned-note"');
    expect(settings).toContain('data-testid="settings-gateway-status">banned<');
    // Not banned: neither is there.
    const ready = render(await storeWith({}), <App />);
    expect(ready).not.toContain('account-banned');
  });

  it('settings: in the desktop app, start at login reflects the host', async () => {
    const html = render(await storeWith({ settings: { consent_policy: 'prompt', consent_always_ask: false, log_level: 'debug', start_at_login: true } }), <SettingsScreen />);
    const box = html.match(/<input[^>]*data-testid="settings-start-at-login"[^>]*>/)?.[0];
    expect(box).toContain('checked=""');
    expect(box).not.toContain('disabled=""');
    expect(html).not.toContain('only in the desktop app');
    expect(html).toMatch(/<option value="debug" selected="">debug<\/option>/);
  });

  it('origin requests: a page\'s origin is shown as text with Allow / Deny; answered origins listed in settings with Forget', async () => {
    const hostile = 'https://<img src=x onerror=alert(1)>.example';
    const store = await storeWith({
      origin_requests: [{ id: 'o1', origin: hostile, client_id: '42', application_name: 'Space <b>Game</b>', created_at: 1, last_attempt_at: 2, attempts: 3 }],
      origins: [{ id: 'o2', origin: 'https://ok.example', client_id: '42', application_name: null, decision: 'approved', decided_at: 5 }],
    });
    const html = render(store, <OriginRequests />);
    expect(count(html, 'data-testid="origin-request-row"')).toBe(1);
    expect(html).toContain('data-testid="origin-request-approve"');
    expect(html).not.toMatch(/<img src=x/i);
    expect(html).not.toContain('<b>Game</b>');
    expect(html).toContain('3 attempts');
    const settings = render(store, <SettingsScreen />);
    expect(count(settings, 'data-testid="origin-row"')).toBe(1);
    expect(settings).toContain('allowed');
    expect(settings).toContain('ws://127.0.0.1:6463');
    expect(render(await storeWith({}), <OriginRequests />)).toBe('');
  });

  it('settings: the doctor panel runs the doctor through the bridge and shows its report', async () => {
    const bridge = createFakeBridge(snapshot());
    bridge.answer('companion:doctor', () => ({
      generated_at: 1,
      directories: [{ dir: '/run/user/1000', kind: 'prefix', why: 'XDG_RUNTIME_DIR' }],
      sockets: [{ path: '/run/user/1000/discord-ipc-0', state: 'answers', holder: 'another server' }],
      clients: [{ name: 'pypresence', rule: 'first entry', outcome: 'connects', path: '/run/user/1000/discord-ipc-0', reason: null, reaches: 'another server' }],
      flatpak: [{ id: 'com.valvesoftware.Steam', exposes: 'none', detail: 'cannot see <the> sockets', fix: 'flatpak override --user --filesystem=xdg-run/app/com.discordapp.Discord:create com.valvesoftware.Steam' }],
      findings: ['Another server holds discord-ipc-0'],
    }));
    const store = createAppStore(bridge);
    await store.started;
    expect(render(store, <SettingsScreen />)).not.toContain('data-testid="doctor-report"');
    expect(await store.getState().runDoctor()).toBe(true);
    const html = render(store, <SettingsScreen />);
    expect(html).toContain('data-testid="doctor-report"');
    expect(html).toContain('Another server holds discord-ipc-0');
    expect(html).toContain('flatpak override --user --filesystem=xdg-run/app/com.discordapp.Discord:create com.valvesoftware.Steam');
    expect(html).toContain('cannot see &lt;the&gt; sockets');
    expect(count(html, 'data-testid="doctor-client"')).toBe(1);
  });

  it('presence: each game says whether friends see it and what became of its last update; settings and the inspector show the relay', async () => {
    const held = { connection_id: 'c1', application_id: '42', update: 3, cause: 'command', cleared: false, at: 1_000, kind: 'held', until: Date.UTC(2026, 0, 1, 12, 0, 5), count: 2 } as const;
    const shadowed = { connection_id: 'c2', application_id: '43', update: 1, cause: 'command', cleared: false, at: 2_000, kind: 'shadowed', by_application_id: '42' } as const;
    const store = await storeWith({
      games: [
        { connection_id: 'c1', client_id: '42', application_name: 'Space Game', pid: 1, transport: 'ipc', client_library: { library: 'unknown', reason: '' }, activity: null, connected_at: 0, link_requests: false },
        { connection_id: 'c2', client_id: '43', application_name: 'Chess', pid: 2, transport: 'ipc', client_library: { library: 'unknown', reason: '' }, activity: null, connected_at: 0, link_requests: false },
      ],
      presence: {
        policy: 'most-recent',
        pinned_application_id: '42',
        hide_all: false,
        rules: { '43': { mode: 'redact', fields: ['details', 'state'] } },
        games: [
          { connection_id: 'c1', application_id: '42', application_name: 'Space Game', shown: true, outcome: held, friends_see: null },
          { connection_id: 'c2', application_id: '43', application_name: 'Chess', shown: false, outcome: shadowed, friends_see: null },
        ],
        recent_outcomes: [held, shadowed],
        announced: [],
      },
    });
    const games = render(store, <GamesScreen />);
    expect(count(games, 'data-testid="game-shown"')).toBe(1);
    // Neither game listens for link requests: no Link account to offer.
    expect(games).not.toContain('data-testid="game-link-account"');
    expect(count(games, 'data-testid="game-not-shown"')).toBe(1);
    // The rate limit's precise word is QA's (Details); the player reads when friends see it.
    expect(outsideDetails(games)).not.toContain('rate limit');
    expect(outsideDetails(games)).toContain('Last update: friends see it in a few seconds');
    expect(games).toContain('held by the rate limit until');
    expect(games).toContain('(2 updates)');
    expect(games).toContain('Space Game is shown instead');
    expect(games.match(/<input[^>]*data-testid="game-pin"[^>]*>/g)?.[0]).toContain('checked=""');
    expect(games).toMatch(/<option value="redact" selected="">/);
    const settings = render(store, <SettingsScreen />);
    expect(settings).toContain('data-testid="presence-settings"');
    expect(settings).toContain('Space Game is pinned');
    expect(outsideDetails(settings)).toContain('<strong>Chess</strong>: friends see part of it');
    expect(outsideDetails(settings)).not.toMatch(/app 4[23]/i);
    expect(count(settings, 'data-testid="presence-rule"')).toBe(1);
    const inspector = render(store, <InspectorScreen />);
    expect(count(inspector, 'data-testid="inspector-relay-outcome"')).toBe(2);
  });

  it("games: 'As friends see it' shows the relay's copy of the activity (a redact rule applied), and says when friends see nothing", async () => {
    const own = { name: 'Chess', type: 0, state: 'Secret opening', details: 'Move 12' };
    const game = (id: string, client: string, name: string) => ({ connection_id: id, client_id: client, application_name: name, pid: 1, transport: 'ipc', client_library: { library: 'unknown', reason: '' }, activity: own, connected_at: 0, link_requests: false });
    const store = await storeWith({
      games: [game('c1', '42', 'Chess'), game('c2', '43', 'Hidden Game')],
      presence: {
        policy: 'most-recent',
        pinned_application_id: null,
        hide_all: false,
        rules: { '42': { mode: 'redact', fields: ['details', 'state'] }, '43': { mode: 'hide' } },
        games: [
          { connection_id: 'c1', application_id: '42', application_name: 'Chess', shown: true, outcome: null, friends_see: { name: 'Chess', type: 0 } },
          { connection_id: 'c2', application_id: '43', application_name: 'Hidden Game', shown: false, outcome: null, friends_see: null },
        ],
        recent_outcomes: [],
        announced: [],
      },
    });
    const html = render(store, <GamesScreen />);
    expect(count(html, 'data-testid="game-friends-see"')).toBe(1);
    expect(count(html, 'data-testid="game-hidden-preview"')).toBe(1);
    expect(html).not.toContain('Secret opening');
    expect(html).not.toContain('Move 12');
  });

  it('app: navigation, and the connection-lost banner', async () => {
    const store = await storeWith({});
    let html = render(store, <App />);
    for (const id of ['games', 'friends', 'inspector', 'apps', 'settings']) expect(html).toContain(`data-testid="nav-${id}"`);
    expect(html).not.toContain('connection-lost');
    expect(html).toMatch(/data-testid="gateway-status" data-state="ready">Connected</);
    store.setState({ connection: { status: 'lost', error: null, attempt: 2, retryInMs: 1_000 } });
    html = render(store, <App />);
    expect(html).toContain('data-testid="connection-lost"');
    // The gateway's last known state is not shown as current while the host is out of reach.
    expect(html).toMatch(/data-testid="gateway-status" data-state="unknown">Companion not reachable</);
  });
});
