import { useId, useState, type ReactNode } from 'react';
import type { DetectedGameView, DetectionView, RunningProgramView } from '../../../preload/src/contract';
import { DETECTED_STATE_WORDS } from '../lib/detection-words';
import { formatTime } from '../lib/format';
import { useApp } from '../store/react';

const games = (count: number): string => `${count} ${count === 1 ? 'game' : 'games'}`;

/** Where the list of known games came from. */
function listWords(list: DetectionView['list']): string {
  if (list.source === 'platform') return `Companion knows ${games(list.applications)}${list.fetched_at === null ? '' : ` (list updated ${formatTime(list.fetched_at)})`}.`;
  if (list.source === 'cache') return `Companion knows ${games(list.applications)}, from the list kept on this computer: the platform could not be reached.`;
  return 'Companion has no list of games yet: it asks the platform when you sign in.';
}

/** "Detected games": the global switch, what was detected (when, from which executable) with a switch each, and games the player adds. */
export function DetectionSettings(): ReactNode {
  const detection = useApp((s) => s.data?.detection ?? null);
  const update = useApp((s) => s.updateDetection);
  const busy = useApp((s) => s.busy.includes('detection'));
  const enabledId = useId();
  if (detection === null) return null;
  const listedIds = new Set(detection.games.map((game) => game.application_id));
  const switchedOff = detection.excluded.filter((game) => !listedIds.has(game.application_id));
  return (
    <section className="card" aria-labelledby="detection-title" data-testid="detection-settings">
      <h2 id="detection-title">Detected games</h2>
      <div className="field">
        <input id={enabledId} type="checkbox" checked={detection.enabled} disabled={busy} onChange={(e) => void update({ enabled: e.target.checked })} data-testid="detection-enabled" />
        <label htmlFor={enabledId}>Show friends the game you play when Companion finds it running</label>
      </div>
      <p className="muted" data-testid="detection-list">
        {listWords(detection.list)}
      </p>
      {detection.games.length === 0 ? (
        <p className="muted">No game detected yet.</p>
      ) : (
        <ul className="rows" aria-label="Detected games">
          {detection.games.map((game) => (
            <DetectedGameRow key={`${game.application_id}:${game.detected_at}`} game={game} excluded={detection.excluded.some((e) => e.application_id === game.application_id)} />
          ))}
        </ul>
      )}
      {switchedOff.length > 0 && (
        <ul className="rows" aria-label="Games you switched off">
          {switchedOff.map((game) => (
            <li className="row" key={game.application_id} data-testid="detection-excluded" data-application-id={game.application_id}>
              <span>
                <strong>{game.name}</strong>: not shown when it runs
              </span>
              <span className="row-actions">
                <button type="button" disabled={busy} onClick={() => void update({ game: { application_id: game.application_id, shown: true } })}>
                  Show again
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <CustomGames detection={detection} />
      <AddGame />
    </section>
  );
}

function DetectedGameRow({ game, excluded }: { readonly game: DetectedGameView; readonly excluded: boolean }): ReactNode {
  const update = useApp((s) => s.updateDetection);
  const busy = useApp((s) => s.busy.includes('detection'));
  const switchId = useId();
  return (
    <li className="row" data-testid="detected-game" data-application-id={game.application_id} data-state={game.state}>
      <span>
        <strong>{game.name}</strong>: {DETECTED_STATE_WORDS[game.state]}
        <br />
        <span className="muted">
          detected {formatTime(game.detected_at)}
          {game.ended_at === null ? '' : `, closed ${formatTime(game.ended_at)}`} from <code data-testid="detected-game-executable">{game.executable}</code>
          {game.custom ? ' (a game you added)' : ''}
        </span>
      </span>
      <span className="row-actions">
        <input id={switchId} type="checkbox" checked={!excluded} disabled={busy} onChange={(e) => void update({ game: { application_id: game.application_id, shown: e.target.checked } })} data-testid="detected-game-shown" />
        <label htmlFor={switchId}>Show to friends</label>
      </span>
    </li>
  );
}

function CustomGames({ detection }: { readonly detection: DetectionView }): ReactNode {
  const remove = useApp((s) => s.removeGame);
  const busy = useApp((s) => s.busy.includes('detection'));
  if (detection.custom.length === 0) return null;
  return (
    <ul className="rows" aria-label="Games you added">
      {detection.custom.map((game) => (
        <li className="row" key={game.id} data-testid="custom-game" data-application-id={game.id}>
          <span>
            <strong>{game.name}</strong> <span className="muted">(a game you added: {game.executable})</span>
          </span>
          <span className="row-actions">
            <button type="button" disabled={busy} onClick={() => void remove(game.id)}>
              Remove
            </button>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** "Add it": the running programs that are no known game, each with a name to give it. */
function AddGame(): ReactNode {
  const programs = useApp((s) => s.programs);
  const listPrograms = useApp((s) => s.listPrograms);
  const listing = useApp((s) => s.busy.includes('programs'));
  return (
    <div data-testid="detection-add">
      <div className="field">
        <button type="button" disabled={listing} onClick={() => void listPrograms()} data-testid="detection-list-programs">
          {programs === null ? 'Not listed? Show running programs' : 'Look again'}
        </button>
      </div>
      {programs !== null && programs.length === 0 && <p className="muted">No other program is running.</p>}
      {programs !== null && programs.length > 0 && (
        <ul className="rows" aria-label="Running programs">
          {programs.map((program) => (
            <ProgramRow key={program.executable} program={program} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ProgramRow({ program }: { readonly program: RunningProgramView }): ReactNode {
  const add = useApp((s) => s.addGame);
  const busy = useApp((s) => s.busy.includes('detection'));
  const [name, setName] = useState('');
  const nameId = useId();
  return (
    <li className="row" data-testid="running-program" data-executable={program.executable}>
      <span>
        <code>{program.executable}</code>
        {program.path === null ? null : <span className="muted"> {program.path}</span>}
      </span>
      <span className="row-actions">
        <label htmlFor={nameId} className="muted">
          Game name
        </label>
        <input id={nameId} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} data-testid="running-program-name" />
        <button type="button" disabled={busy || name.trim() === ''} onClick={() => void add(program.executable, name)} data-testid="running-program-add">
          Add it
        </button>
      </span>
    </li>
  );
}
