// The web UI as the daemon serves it: the page (with this daemon's token and an import map for
// the libraries), the compiled modules (dist/ui), the stylesheets (src/ui/static) and the
// libraries themselves from the installed packages. Nothing comes from a CDN; the page runs
// under a strict Content-Security-Policy that allows only this origin and the import map's hash.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** dist/ui: the browser modules compiled from src/ui. */
const APP_DIR = resolve(here, '..', 'ui');
/** The page, stylesheets and icons. */
const STATIC_DIR = resolve(here, '..', '..', 'src', 'ui', 'static');

/** Bare module names of the UI → the file of the installed package that is the browser build. */
const VENDOR: Record<string, { pkg: string; file: string }> = {
  preact: { pkg: 'preact', file: 'dist/preact.mjs' },
  'preact/hooks': { pkg: 'preact', file: 'hooks/dist/hooks.mjs' },
  htm: { pkg: 'htm', file: 'dist/htm.mjs' },
  cytoscape: { pkg: 'cytoscape', file: 'dist/cytoscape.esm.min.mjs' },
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
};

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== name) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find the package ${name}`);
    dir = up;
  }
  return dir;
}

const vendorUrl = (name: string): string => `/vendor/${name.replace('/', '-')}.js`;

/** The import map of the page: bare names → /vendor/ URLs. */
export const IMPORT_MAP = JSON.stringify({ imports: Object.fromEntries(Object.keys(VENDOR).map((name) => [name, vendorUrl(name)])) });

/** The page's Content-Security-Policy: this origin only, the import map by its hash, no inline anything else. */
export const CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'`,
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A file to send: its bytes and content type. */
export interface Asset {
  body: Uint8Array | string;
  type: string;
}

/** The page, for a daemon with this token and store name. */
export function indexPage(token: string, storeName: string): Asset {
  const template = readFileSync(join(STATIC_DIR, 'index.html'), 'utf8');
  // One pass, each value by a function: a store folder named `a$\`b` or `{{IMPORTMAP}}` is text, never a pattern or a place.
  const values: Record<string, string> = { TOKEN: escapeHtml(token), STORE: escapeHtml(storeName), IMPORTMAP: IMPORT_MAP };
  const body = template.replace(/\{\{(TOKEN|STORE|IMPORTMAP)\}\}/g, (_match, name: string) => values[name]!);
  return { body, type: TYPES['.html']! };
}

/** The page for a browser without the token: where to find the link that carries it. */
export function lockedPage(storeName: string): Asset {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>lore — ${escapeHtml(storeName)}</title><link rel="stylesheet" href="/static/base.css"></head>
<body><main class="screen locked"><h1>lore: ${escapeHtml(storeName)}</h1>
<p>This page needs the link <code>lore serve</code> printed: it carries the key to this store (<code>http://…/?token=…</code>).</p>
<p><code>lore serve --open</code> opens it for you; the token is also in <code>.knowledge/.cache/daemon.json</code>.</p></main></body></html>\n`;
  return { body, type: TYPES['.html']! };
}

/** A file under `dir` named by a URL path, or undefined (unknown name, or one that leaves the folder). */
function fileUnder(dir: string, name: string): Asset | undefined {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/.test(name)) return undefined;
  const path = resolve(dir, name);
  if (!path.startsWith(`${dir}${sep}`)) return undefined;
  const type = TYPES[extname(path)];
  if (type === undefined) return undefined;
  try {
    return { body: readFileSync(path), type };
  } catch {
    return undefined;
  }
}

/** The asset of a URL path (`/app/main.js`, `/static/base.css`, `/vendor/preact.js`), or undefined. */
export function uiAsset(pathname: string): Asset | undefined {
  if (pathname.startsWith('/app/')) return fileUnder(APP_DIR, pathname.slice(5));
  if (pathname.startsWith('/static/')) return fileUnder(STATIC_DIR, pathname.slice(8));
  if (pathname.startsWith('/vendor/')) {
    const name = Object.keys(VENDOR).find((n) => vendorUrl(n) === pathname);
    if (name === undefined) return undefined;
    const { pkg, file } = VENDOR[name]!;
    return { body: readFileSync(join(packageDir(pkg), file)), type: TYPES['.js']! };
  }
  return undefined;
}
