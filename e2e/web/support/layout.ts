import type { Locator, Page } from '@playwright/test';

/** How one friend's row is laid out: its box, its name's and status's line boxes, whether anything spills. */
export interface FriendRowLayout {
  readonly height: number;
  readonly nameLines: number;
  readonly nameHeight: number;
  readonly statusHeight: number;
  /** Two lines of the row's larger font: a name or status at least this high has wrapped. */
  readonly lineLimit: number;
  readonly overflows: boolean;
}

/** A row of one line of name and one of status beside a 40 px avatar stays well under this. */
export const FRIEND_ROW_MAX_PX = 80;

/** How a friend's row is laid out (see FriendRowLayout). */
export async function measureFriendRow(row: Locator): Promise<FriendRowLayout> {
  return row.evaluate((li) => {
    const name = li.querySelector<HTMLElement>('[data-testid="friend-name"]')!;
    const status = li.querySelector<HTMLElement>('[data-testid="friend-status"]')!;
    const fontSize = (el: HTMLElement): number => parseFloat(getComputedStyle(el).fontSize);
    return {
      height: li.getBoundingClientRect().height,
      // An inline element wrapped over n lines has n boxes.
      nameLines: name.getClientRects().length,
      nameHeight: name.getBoundingClientRect().height,
      statusHeight: status.getBoundingClientRect().height,
      // Two lines of the name's font would be at least twice its size.
      lineLimit: 2 * Math.max(fontSize(name), fontSize(status)),
      overflows: li.scrollWidth > li.clientWidth + 1,
    };
  });
}

/**
 * How far the page itself scrolls beyond the window, sideways and down (0, 0 expected): the app
 * fills the window and its screens scroll inside it, so a page that scrolls shows empty space.
 */
export async function pageScroll(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(() => ({
    x: Math.max(0, document.documentElement.scrollWidth - window.innerWidth),
    y: Math.max(0, document.documentElement.scrollHeight - window.innerHeight),
  }));
}

/**
 * Visible text squeezed into a column a letter or two wide (the failure of issue 26 §1: names and
 * status one letter per line): every element with text of its own at least 4 characters long drawn
 * narrower than 2.5 characters and taller than 3 lines. Returns their texts (none expected).
 */
export async function letterStacks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const own = Array.from(el.childNodes)
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent ?? '')
        .join('')
        .trim();
      if (own.length < 4) continue;
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (rect.width < 2.5 * size && rect.height > 3 * 1.2 * size) found.push(own.slice(0, 40));
    }
    return found;
  });
}
