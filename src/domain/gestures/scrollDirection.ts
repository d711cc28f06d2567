/** The four ways ui_scroll moves a list, as the model sends them ("down" shows what is further down). */
export const SCROLL_DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export type ScrollDirection = (typeof SCROLL_DIRECTIONS)[number];
