// Placeholder: replaced by the screen itself.
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';

/** The Knowledge screen. */
export function KnowledgeScreen(_props: ScreenProps) {
  return html`<section class="screen"><header class="screen-head"><h1>Knowledge</h1></header><p class="empty">Not built yet.</p></section>`;
}
