/**
 * The command that hands a URL to the desktop's default handler (a browser, or a game's
 * registered scheme): `open` on macOS, `start` through cmd on Windows (its first quoted
 * argument is a window title, hence the empty one), `xdg-open` elsewhere. Each exits once the
 * URL is handed over; xdg-open exits non-zero when nothing handles it.
 */
export function urlOpener(platform: NodeJS.Platform, url: string): readonly [command: string, ...args: string[]] {
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['cmd', '/c', 'start', '', url];
  return ['xdg-open', url];
}
