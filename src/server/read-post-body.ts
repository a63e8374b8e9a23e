// An SDK 1.32 POST's body, read here and handed to the transport parsed. Left to read it itself, the transport asks
// @hono/node-server's request for its body, which builds an undici Request around a web stream of the socket with
// a signal undici follows through a FinalizationRegistry entry: per request, held until a full collection and the
// registry's cleanup (half of such entries alive in heap snapshots of the loaded server child, docs/scale.md).
// A body that is not JSON is left where hono's request finds it (`rawBody`), so the transport answers it as before.
import type { IncomingMessage } from 'node:http';
import { MAX_REQUEST_BODY_BYTES } from './oversized-body.ts';

/** The body was over the limit: the caller refuses it (oversized-body.ts). */
export const TOO_LARGE = Symbol('too large');

/** The body's JSON, or undefined (not JSON: on `rawBody` for the transport), or TOO_LARGE (the rest unread). */
export async function readPostBody(req: IncomingMessage): Promise<unknown> {
  // Read already (the dual front end's classify) or gone: nothing to read.
  if (req.readableEnded || req.destroyed) return undefined;
  const body = await new Promise<Buffer | typeof TOO_LARGE>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= MAX_REQUEST_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData).pause();
      resolve(TOO_LARGE);
    };
    req.on('data', onData);
    // 'close' too: a client that gives up mid-upload never sends the end.
    const done = () => resolve(Buffer.concat(chunks));
    req.once('end', done).once('close', done).once('error', reject);
  });
  if (body === TOO_LARGE) return body;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    Object.assign(req, { rawBody: body });
    return undefined;
  }
}
