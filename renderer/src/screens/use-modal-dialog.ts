import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';

export interface ModalDialog {
  readonly dialogRef: RefObject<HTMLDivElement | null>;
  readonly onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => void;
}

function trapFocus(event: KeyboardEvent, container: HTMLElement | null): void {
  if (container === null) return;
  const focusable = [...container.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select, [tabindex]:not([tabindex="-1"])')];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (first === undefined || last === undefined) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === container)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal dialog's focus and keys: the dialog itself takes focus when it opens (not a button:
 * a stray Enter must never act) and gives it back when it closes; Escape calls `onEscape`;
 * Enter acts only on a focused button; Tab stays inside the dialog.
 */
export function useModalDialog(onEscape: () => void): ModalDialog {
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.focus();
    return () => previous?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onEscape();
      return;
    }
    if (event.key === 'Enter') {
      // Enter acts only on the focused button (native behaviour); anywhere else it does nothing.
      const target = event.target as HTMLElement;
      if (target.tagName !== 'BUTTON') event.preventDefault();
      return;
    }
    if (event.key === 'Tab') trapFocus(event, dialogRef.current);
  };

  return { dialogRef, onKeyDown };
}
