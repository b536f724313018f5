#!/usr/bin/env node
// A tiny game for trying invites by hand, on the real @xhayper/discord-rpc client.
//   node examples/join-demo.mjs host    sets a joinable activity and says yes to every join request
//   node examples/join-demo.mjs guest   waits for ACTIVITY_JOIN / ACTIVITY_INVITE and prints them
// It finds Companion like any game does: through XDG_RUNTIME_DIR (or TMPDIR).
import { Client } from '@xhayper/discord-rpc';

const role = process.argv[2];
if (role !== 'host' && role !== 'guest') {
  console.error('usage: node examples/join-demo.mjs host|guest');
  process.exit(2);
}
const DEMO_APP_ID = '1234567890123456789'; // the emulator's seeded "Companion Demo Game"
const client = new Client({ clientId: DEMO_APP_ID });

client.on('ACTIVITY_JOIN_REQUEST', async ({ user }) => {
  console.log(`join request from ${user.username} (${user.id}): accepting`);
  await client.user.sendJoinInvite(user.id);
});
client.on('ACTIVITY_JOIN', ({ secret }) => console.log(`ACTIVITY_JOIN: joining with secret ${secret}`));
client.on('ACTIVITY_INVITE', (invite) => console.log(`invite from ${invite.user.username}: message ${invite.message_id}`));

await client.connect();
console.log(`connected as ${client.user.username}`);
if (role === 'host') {
  await client.subscribe('ACTIVITY_JOIN_REQUEST');
  await client.user.setActivity({
    state: 'In a squad',
    details: 'Waiting for players',
    partyId: 'demo-party',
    partySize: 1,
    partyMax: 4,
    joinSecret: 'demo-join-secret',
  });
  console.log('activity set: party demo-party (1 of 4), joinable');
} else {
  await client.subscribe('ACTIVITY_JOIN');
  await client.subscribe('ACTIVITY_INVITE');
  console.log('waiting for a join or an invite');
}
process.on('SIGINT', () => client.destroy().finally(() => process.exit(0)));
