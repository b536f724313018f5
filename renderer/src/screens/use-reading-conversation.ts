import { useEffect, useState } from 'react';
import { READING_RENEW_MS } from '../../../preload/src/contract';
import { useApp } from '../store/react';

/** Whether the player can be looking at the page: it is visible and its window has the focus. */
function pageShown(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'visible' && document.hasFocus();
}

/** `pageShown()`, kept up to date as the page is hidden, shown, focused and left. */
function usePageShown(): boolean {
  const [shown, setShown] = useState(pageShown);
  useEffect(() => {
    const update = (): void => setShown(pageShown());
    document.addEventListener('visibilitychange', update);
    window.addEventListener('focus', update);
    window.addEventListener('blur', update);
    update();
    return () => {
      document.removeEventListener('visibilitychange', update);
      window.removeEventListener('focus', update);
      window.removeEventListener('blur', update);
    };
  }, []);
  return shown;
}

/**
 * The conversation with `friendId` is on screen while this is mounted: whenever the page is
 * shown, the host is told it is read (and keeps it read as messages arrive), renewed every
 * READING_RENEW_MS and when a new message shows; when it leaves the screen or the page is
 * hidden or loses the focus, the host is told once more (read up to what was shown) and stops.
 */
export function useReadingConversation(friendId: string, newestId: string | null): void {
  const read = useApp((s) => s.readConversation);
  const shown = usePageShown();
  useEffect(() => {
    if (!shown) return undefined;
    const timer = setInterval(() => void read(friendId, true), READING_RENEW_MS);
    return () => {
      clearInterval(timer);
      void read(friendId, false);
    };
  }, [friendId, shown, read]);
  useEffect(() => {
    if (shown) void read(friendId, true);
  }, [friendId, shown, newestId, read]);
}
