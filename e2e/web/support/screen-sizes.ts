/** The window sizes and colour schemes every screen is checked and photographed at (issue 26). */
export const SIZES = [
  { width: 800, height: 600 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
export const THEMES = ['dark', 'light'] as const;
export type Theme = (typeof THEMES)[number];
export type Size = (typeof SIZES)[number];
