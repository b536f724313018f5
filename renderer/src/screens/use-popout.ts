import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Space kept between the popout, its trigger and the window's edges (px). */
const GAP = 8;

export interface PopoutPlacement {
  readonly top: number;
  readonly left: number;
}

/** Where a popout of `size` goes for a trigger at `anchor`: under it, else over it, inside the window. */
export function placePopout(anchor: DOMRect, size: { readonly width: number; readonly height: number }, viewport: { readonly width: number; readonly height: number }): PopoutPlacement {
  const left = Math.max(GAP, Math.min(anchor.left, viewport.width - size.width - GAP));
  const below = anchor.bottom + GAP;
  const above = anchor.top - GAP - size.height;
  const top = below + size.height <= viewport.height - GAP || above < GAP ? below : above;
  return { top: Math.max(GAP, Math.min(top, viewport.height - size.height - GAP)), left };
}

/** Whether this Tab leaves the popout: forwards from its last control, backwards from its first (or from itself). */
function tabsOut(event: KeyboardEvent, popout: HTMLElement): boolean {
  const active = document.activeElement;
  if (!(active instanceof Node) || !popout.contains(active)) return false;
  const controls = [...popout.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])')];
  if (event.shiftKey) return active === popout || active === controls[0];
  return controls.length === 0 || active === controls[controls.length - 1];
}

/** Keeps the popout placed by its trigger while the page scrolls or the window changes size. */
function usePlacement(popoutRef: RefObject<HTMLElement | null>, triggerRef: RefObject<HTMLElement | null>): PopoutPlacement | null {
  const [placement, setPlacement] = useState<PopoutPlacement | null>(null);
  useLayoutEffect(() => {
    const place = (): void => {
      const popout = popoutRef.current;
      const trigger = triggerRef.current;
      if (popout === null || trigger === null) return;
      setPlacement(placePopout(trigger.getBoundingClientRect(), { width: popout.offsetWidth, height: popout.offsetHeight }, { width: window.innerWidth, height: window.innerHeight }));
    };
    place();
    window.addEventListener('resize', place);
    document.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      document.removeEventListener('scroll', place, true);
    };
  }, [popoutRef, triggerRef]);
  return placement;
}

/**
 * A non-modal popout's behaviour, as the client's profile popout: it takes focus when it opens;
 * Escape, a click outside it, Tab past its last control (Shift+Tab before its first) or focus
 * leaving it otherwise closes it (`onClose`); then focus goes back to
 * the trigger unless the player put it on another control (a click on one keeps it there). `returnFocusTo` can name another element to focus instead (e.g. the message box).
 */
export function usePopout(
  triggerRef: RefObject<HTMLElement | null>,
  onClose: () => void,
): { readonly popoutRef: RefObject<HTMLDivElement | null>; readonly placement: PopoutPlacement | null; readonly returnFocusTo: (element: () => HTMLElement | null) => void } {
  const popoutRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  const focusTarget = useRef<() => HTMLElement | null>(() => triggerRef.current);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);
  useEffect(() => {
    const popout = popoutRef.current;
    popout?.focus();
    const outside = (target: EventTarget | null): boolean => target instanceof Node && !popout?.contains(target) && !triggerRef.current?.contains(target);
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented) return;
      if (event.key === 'Escape' || (event.key === 'Tab' && popout !== null && tabsOut(event, popout))) {
        event.preventDefault();
        closeRef.current();
      }
    };
    const onClick = (event: MouseEvent): void => {
      if (outside(event.target)) closeRef.current();
    };
    const onFocusOut = (event: FocusEvent): void => {
      if (event.relatedTarget !== null && outside(event.relatedTarget)) closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    popout?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
      popout?.removeEventListener('focusout', onFocusOut);
      const active = document.activeElement;
      // Focus was in the popout (now gone), or a click left it on no control (the page, a
      // container): back to the trigger (or the element asked for). A control the player chose keeps it.
      const onControl = active instanceof HTMLElement && active.tabIndex >= 0 && popout?.contains(active) !== true;
      if (!onControl) focusTarget.current()?.focus();
    };
  }, [triggerRef]);
  const placement = usePlacement(popoutRef, triggerRef);
  return {
    popoutRef,
    placement,
    returnFocusTo: (element) => {
      focusTarget.current = element;
    },
  };
}
