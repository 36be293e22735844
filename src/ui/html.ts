// htm bound to Preact: components are written as tagged templates, no JSX build step.
import { h } from 'preact';
import htm from 'htm';

/** Preact's `h` as a template tag: html`<p class="empty">${text}</p>`. */
export const html = htm.bind(h);

/** What an `html` template gives: one node, or several. */
export type Markup = ReturnType<typeof html>;
