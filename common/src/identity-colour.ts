/**
 * The colour of something with an id (a user's default avatar, a generated picture): one of a
 * few, all with white text above 4.5:1 (WCAG AA), picked by a hash of the id so it is always the
 * same. The renderer and the emulator's CDN use it alike.
 */
export const IDENTITY_COLOURS = ['#4752c4', '#2f6f4f', '#8a3f9b', '#a8431d', '#1f6b8a', '#7a5a00', '#b0304f', '#4a5566'] as const;

export function identityColour(id: string): string {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return IDENTITY_COLOURS[hash % IDENTITY_COLOURS.length] ?? IDENTITY_COLOURS[0];
}
