/**
 * The one contract between the host (main) and the UI (renderer), the only module both sides
 * compile against for what crosses between them. The Electron preload, the headless host's
 * WebSocket bridge, the host's control API and the renderer all derive from it:
 * - contract/views.ts: every view (the JSON shapes), the snapshot and its topics;
 * - contract/actions.ts: the calls (`invoke` channels) with their arguments and results;
 * - contract/channels.ts: the pushes, the bridge interface, the web bridge's wire messages;
 * - contract/apply.ts: how a UI applies pushes to the state it holds;
 * - contract/schemas.ts: the valibot schemas of every call (imported on its own, never from
 *   here: the sandboxed preload bundle must not carry valibot).
 *
 * Adding a UI action touches the contract, one handler and the UI:
 *   1. contract/actions.ts: the channel in `InvokeChannels` (args, result) and in `ACTION_NAMES`;
 *   2. contract/schemas.ts: its argument schema in `CHANNEL_SCHEMAS`;
 *   3. main/src/host/ui-bridge/ui-actions.ts: its handler in `UI_ACTIONS`;
 *   4. renderer/src/store/app-store.ts: the store action; the screen that calls it.
 * (The compiler asks for 2 and 3 once 1 is written. A new host capability is a method on
 * `WebUiBackend`, implemented where the host composes it.)
 *
 * None of these modules imports anything but each other (and schemas.ts, valibot).
 */
export * from './contract/views.js';
export * from './contract/actions.js';
export * from './contract/channels.js';
export * from './contract/apply.js';
