import type { JoinReport } from '../../host/social/social-service.js';

/** What `control join` and `control accept-invite` print for a join, and their exit code (1 when the game could not be started). */
export function describeJoin(report: JoinReport, friend: string): { readonly text: string; readonly exitCode: number } {
  if (report.joined) return { text: 'Joined: the game got ACTIVITY_JOIN\n', exitCode: 0 };
  if (report.requested) return { text: `Asked ${friend} to let you join; their game decides\n`, exitCode: 0 };
  const wait = report.pending_ms === undefined ? 'a while' : `${Math.round(report.pending_ms / 60_000)} min`;
  const launch = report.launch;
  if (launch === undefined) {
    return { text: `Not joined yet: the game is running but has not subscribed to ACTIVITY_JOIN; the join waits ${wait} for it\n`, exitCode: 0 };
  }
  if (launch.launched) {
    return { text: `Not joined yet: the game was not running; started it (${launch.how}) and it gets the join when it connects (the join waits ${wait})\n`, exitCode: 0 };
  }
  return { text: `Not joined: could not start the game (${launch.how}): ${launch.failure ?? 'no reason given'}. Start it yourself within ${wait} and it gets the join\n`, exitCode: 1 };
}
