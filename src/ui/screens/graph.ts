// Placeholder: replaced by the screen itself.
import { html } from '../html.js';
import type { ScreenProps } from '../screen.js';

/** The Context graph screen. */
export function GraphScreen(_props: ScreenProps) {
  return html`<section class="screen"><header class="screen-head"><h1>Context graph</h1></header><p class="empty">Not built yet.</p></section>`;
}
