// Dark mode: follows prefers-color-scheme until the user picks a theme with the toggle.

import { byId } from "./dom";

const STORAGE = "civicsetu.theme";
const media = window.matchMedia("(prefers-color-scheme: dark)");
const listeners: (() => void)[] = [];

/** True when the dark palette is in use. */
export function isDark(): boolean {
  const picked = document.documentElement.dataset.theme;
  return picked ? picked === "dark" : media.matches;
}

/** Be told when the palette changes (the graph re-reads its colours). */
export function onThemeChange(fn: () => void): void {
  listeners.push(fn);
}

function sync(): void {
  const button = byId("theme-toggle");
  const dark = isDark();
  button.setAttribute("aria-pressed", String(dark));
  listeners.forEach((fn) => fn());
}

export function initTheme(): void {
  byId("theme-toggle").addEventListener("click", () => {
    const next = isDark() ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem(STORAGE, next);
    } catch {
      /* private mode: the choice lasts for this page */
    }
    sync();
  });
  media.addEventListener("change", sync);
  sync();
}

/** A CSS custom property's current value. */
export function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}
