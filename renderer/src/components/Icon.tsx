import type { ReactNode } from 'react';

/** The row actions' pictures: stroke paths on a 24-unit grid, drawn in the text colour. */
const PATHS = {
  message: 'M4 5h16v11H9l-5 4z',
  invite: 'M12 5v14M5 12h14',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
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
