import type { ReactNode } from 'react';
import { Details } from '../components/Details';
import { formatDate } from '../lib/format';
import { libraryLabel, transportLabel } from '../lib/game-labels';
import { useApp } from '../store/react';

/**
 * The selected frame's connection as the Games card's Details tell it (the game, its client id,
 * process, transport and library), for QA reading the inspector; nothing when the game has gone.
 */
export function InspectorConnectionFacts({ connectionId }: { readonly connectionId: string }): ReactNode {
  const game = useApp((s) => s.data?.games.find((g) => g.connection_id === connectionId));
  if (game === undefined) return null;
  return (
    <Details
      testId="inspector-connection-details"
      facts={[
        { label: 'Game', value: game.application_name },
        { label: 'Client ID', value: game.client_id, testId: 'inspector-connection-client-id' },
        { label: 'Process ID', value: game.pid ?? 'unknown', testId: 'inspector-connection-pid' },
        { label: 'Connection', value: `${game.connection_id} · ${transportLabel(game.transport)}` },
        { label: 'Client library', value: `${libraryLabel(game.client_library.library)} (${game.client_library.reason})` },
        { label: 'Connected', value: formatDate(game.connected_at) },
      ]}
    />
  );
}
