// The checks every request passes before a handler sees it: its Host must name this daemon (DNS
// rebinding), nothing a browser marks cross-site or same-site and no foreign Origin, the token on
// every API request but health and events, JSON for a POST.
import { createHash, timingSafeEqual } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { Context, MiddlewareHandler } from 'hono';
import { refuse } from './_respond.js';

const LOOPBACK = new Set(['127.0.0.1', '::1']);

/** A host name as the Host header spells it, with the port. */
const withPort = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/**
 * The Host header values that name this daemon: its address, localhost for a loopback one, and
 * every address of this machine for a wildcard one (0.0.0.0, ::). Anything else is a name that
 * resolved here by a trick (DNS rebinding).
 */
function hostNames(address: { host: string; port: number }): Set<string> {
  const { host, port } = address;
  const names = new Set([withPort(host, port)]);
  if (LOOPBACK.has(host) || host === '0.0.0.0' || host === '::') names.add(`localhost:${port}`);
  if (host === '0.0.0.0' || host === '::') {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(withPort(a.address.toLowerCase(), port));
  }
  return names;
}

/** Whether `given` is the token, compared in constant time (by digest: any length, any bytes). */
export function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * The cookie that lets a browser load the page and listen to the events (set from the ?token= link
 * lore serve prints). Named by port: cookies are the host's, whatever the port, so two daemons on
 * one machine would otherwise overwrite each other's.
 */
export const tokenCookie = (port: number): string => `lore_token_${port}`;

/** A cookie of the request, by name. */
export function cookie(c: Context, name: string): string | undefined {
  for (const part of (c.req.header('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Reads that need no token: the daemon's state. */
const OPEN_READS = new Set(['/api/health']);

/** The middleware that refuses what must not reach a handler (403, 405, 415). */
export function securityChecks(options: { token: string; address(): { host: string; port: number } }): MiddlewareHandler {
  return async (c, next) => {
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    c.header('cache-control', 'no-store');
    const host = c.req.header('host');
    if (host === undefined || !hostNames(options.address()).has(host.toLowerCase())) {
      return refuse(c, 403, 'FORBIDDEN', `the Host header ${JSON.stringify(host ?? '')} does not name this daemon`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== `http://${host}`) return refuse(c, 403, 'FORBIDDEN', `a request from ${origin} may not use this daemon`);
    const site = c.req.header('sec-fetch-site');
    if (site === 'cross-site' || site === 'same-site') return refuse(c, 403, 'FORBIDDEN', `a ${site} request may not use this daemon`);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'POST') return refuse(c, 405, 'USAGE', `${c.req.method} is not served here`);
    // The event stream takes the page's cookie too: an EventSource cannot send headers.
    const given = c.req.header('x-lore-token') ?? (c.req.path === '/api/events' ? cookie(c, tokenCookie(options.address().port)) : undefined);
    if (c.req.path.startsWith('/api/') && !(c.req.method !== 'POST' && OPEN_READS.has(c.req.path)) && !sameToken(given, options.token)) {
      return refuse(c, 403, 'FORBIDDEN', 'this request needs the daemon token (header x-lore-token)', 'the token is in .knowledge/.cache/daemon.json');
    }
    if (c.req.method === 'POST' && !/^application\/json\b/i.test(c.req.header('content-type') ?? '')) return refuse(c, 415, 'USAGE', 'the body must be JSON (content-type: application/json)');
    await next();
  };
}
