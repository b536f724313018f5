import type { ReactNode } from 'react';

/** The row actions' pictures: stroke paths on a 24-unit grid, drawn in the text colour. */
const PATHS = {
  message: 'M4 5h16v11H9l-5 4z',
  invite: 'M12 5v14M5 12h14',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  mic: 'M12 3a3 3 0 0 1 3 3v5a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3zM6 11a6 6 0 0 0 12 0M12 17v4',
  'mic-off': 'M12 3a3 3 0 0 1 3 3v5a3 3 0 0 1-6 0V6a3 3 0 0 1 3-3zM6 11a6 6 0 0 0 12 0M12 17v4M4 4l16 16',
  headphones: 'M4 15v-3a8 8 0 0 1 16 0v3M4 15h3v5H4zM17 15h3v5h-3z',
  'headphones-off': 'M4 15v-3a8 8 0 0 1 16 0v3M4 15h3v5H4zM17 15h3v5h-3zM4 4l16 16',
} as const;

export type IconName = keyof typeof PATHS;

/** A decorative icon: the button or link around it carries the name (aria-label). */
export function Icon({ name }: { readonly name: IconName }): ReactNode {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth={name === 'more' ? 3.5 : 2} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
