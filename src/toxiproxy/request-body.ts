// An API request body, read in full before the request takes its turn (change-order.ts) and bounded in size and
// time, so a stalled, trickling or huge body holds up only its own request. Real Toxiproxy sets no size limit and
// gives headers and body 15 s together (Go's http.Server ReadTimeout); these bounds are ours.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.ts';
import { sendApiError } from './http-reply.ts';

export interface BodyLimits {
  /** Largest body accepted; a larger one is answered 413. */
  maxBytes: number;
  /** Time for the whole body to arrive once the headers are in; a slower one is answered 408. */
  timeoutMs: number;
}

/** 1 MiB holds a populate of several thousand proxies; 10 s is ample for any body on loopback. */
export const DEFAULT_BODY_LIMITS: BodyLimits = { maxBytes: 1024 * 1024, timeoutMs: 10_000 };

/** After a 413 the rest of the body is read and dropped, keeping the connection, if it ends within this long;
 * otherwise the connection is closed. Closing at once would make the kernel reset the connection on the unread
 * bytes, and the client could lose the 413 (Go's server waits likewise before closing). */
const DISCARD_GRACE_MS = 1000;

/** The body as text, or undefined when the request was answered here (413, 408) or the client went away. */
export function readBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<string | undefined> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (text: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(text);
    };
    const tooLarge = () => {
      settle(undefined);
      parts.length = 0;
      sendApiError(res, new ApiError(`request body too large: more than ${limits.maxBytes} bytes`, 413));
      if (req.complete) return;
      const grace = setTimeout(() => req.socket.destroy(), DISCARD_GRACE_MS);
      req.once('end', () => clearTimeout(grace));
    };
    const timer = setTimeout(() => {
      settle(undefined);
      res.shouldKeepAlive = false;
      sendApiError(res, new ApiError(`request body not received within ${limits.timeoutMs} ms`, 408));
    }, limits.timeoutMs);
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limits.maxBytes) tooLarge();
      else parts.push(chunk);
    });
    req.once('end', () => settle(Buffer.concat(parts, size).toString('utf8')));
    req.once('close', () => settle(undefined));
    if (Number(req.headers['content-length'] ?? 0) > limits.maxBytes) tooLarge();
  });
}
