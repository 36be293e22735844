// The UI's shell: navigation between the screens (hash routes), the store's name and the
// watcher's state in the header, and a toast when the store changes on disk.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get, useStoreEvents } from './api.js';
import { html } from './html.js';
import { SCREENS } from './screens.js';

interface Health {
  version: string;
  store: string;
  watcher: { state: string; message?: string };
}

function route(): string[] {
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter((p) => p !== '').map(decodeURIComponent);
  return parts.length === 0 ? [SCREENS[0]!.id] : parts;
}

function navigate(...parts: string[]): void {
  location.hash = `#/${parts.map(encodeURIComponent).join('/')}`;
}

function App() {
  const [parts, setParts] = useState(route());
  const [health, setHealth] = useState<Health | undefined>(undefined);
  useEffect(() => {
    const onHash = (): void => setParts(route());
    addEventListener('hashchange', onHash);
    get<Health>('/api/health').then(setHealth, () => undefined);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useStoreEvents((event) => {
    if (event.type !== 'watcher') return;
    const watcher = { state: event.state, ...(event.message === undefined ? {} : { message: event.message }) };
    setHealth((h) => (h === undefined ? h : { ...h, watcher }));
  }, []);
  const screen = SCREENS.find((s) => s.id === parts[0]) ?? SCREENS[0]!;
  const Screen = screen.component;
  return html`
    <div class="app">
      <nav class="nav">
        <div class="brand">lore</div>
        ${SCREENS.map((s) => html`<a href=${`#/${s.id}`} class=${s.id === screen.id ? 'active' : ''}>${s.title}</a>`)}
        <div class="nav-foot">
          ${health === undefined ? '' : html`
            <div class="store" title=${health.store}>${health.store.split('/').pop()}</div>
            <div class=${`watcher ${health.watcher.state}`} title=${health.watcher.message ?? ''}>${health.watcher.state === 'watching' ? 'live' : health.watcher.state}</div>
            <div class="version">lore ${health.version}</div>`}
        </div>
      </nav>
      <main class="main"><${Screen} path=${parts.slice(1)} navigate=${navigate} /></main>
    </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
