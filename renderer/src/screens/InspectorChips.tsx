import type { ReactNode } from 'react';
import { chipKey, nextChipState, type ChipFacet, type ChipState } from '../store/frames';
import { useApp } from '../store/react';

const FACET_LABELS: Readonly<Record<ChipFacet, string>> = { direction: 'Direction', opcode: 'Opcode', command: 'Command' };

/** What a chip says of its state, after its value (the value stays first: it is the chip's name). */
const STATE_WORDS: Readonly<Record<ChipState, string>> = { only: 'only', hide: 'hidden' };

/**
 * Filter chips, as in a browser's devtools: one per direction, opcode and command present.
 * A click shows only that value, a second hides it, a third clears it.
 */
export function InspectorChips({ values }: { readonly values: Readonly<Record<ChipFacet, readonly string[]>> }): ReactNode {
  const chips = useApp((s) => s.filter.chips);
  const setFilter = useApp((s) => s.setFilter);
  const toggle = (key: string): void => {
    const next = nextChipState(chips[key]);
    const rest = Object.fromEntries(Object.entries(chips).filter(([k]) => k !== key));
    setFilter({ chips: next === undefined ? rest : { ...rest, [key]: next } });
  };
  const any = Object.keys(chips).length > 0;
  return (
    <div className="chips" role="group" aria-label="Filter frames" data-testid="inspector-chips">
      {(Object.keys(FACET_LABELS) as ChipFacet[]).map((facet) =>
        values[facet].length === 0 ? null : (
          <span key={facet} className="chip-group">
            <span className="muted chip-facet">{FACET_LABELS[facet]}</span>
            {values[facet].map((value) => {
              const key = chipKey(facet, value);
              const state = chips[key];
              return (
                <button
                  key={key}
                  type="button"
                  className={`chip${state === undefined ? '' : ` chip-${state}`}`}
                  onClick={() => toggle(key)}
                  title={state === undefined ? `Show only ${value}` : state === 'only' ? `Hide ${value}` : `Stop hiding ${value}`}
                  data-testid="inspector-chip"
                  data-chip={key}
                  data-state={state ?? 'off'}
                >
                  {state === 'hide' ? <s>{value}</s> : value}
                  {state !== undefined && <span className="chip-state"> ({STATE_WORDS[state]})</span>}
                </button>
              );
            })}
          </span>
        ),
      )}
      {any && (
        <button type="button" className="link" onClick={() => setFilter({ chips: {} })} data-testid="inspector-chips-clear">
          Clear chips
        </button>
      )}
    </div>
  );
}
