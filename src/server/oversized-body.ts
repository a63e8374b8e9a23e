// One error contract for an oversized request body in every era. Both SDKs refuse a declared Content-Length over
// their limit with a 413 before reading any of it, while the client is still sending, so the client often sees the
// socket reset (`fetch failed`, an uncertain link error it retries) instead of the 413. The reference server reads
// the declared body to its end (discarding it), then refuses it: the client always gets the 413.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { writeJsonRpcError } from '../core/json-rpc.ts';

/** The SDKs' default request limit (SDK 2.4's is the same 4 MiB: test/server/front-ends.test.ts). */
export const MAX_REQUEST_BODY_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

/** Whether a request declares a body over the limit (a chunked body the SDK bounds as it reads). */
export function declaresOversizedBody(req: IncomingMessage): boolean {
  return req.method === 'POST' && Number(req.headers['content-length'] ?? 0) > MAX_REQUEST_BODY_BYTES;
}

export async function refuseOversizedBody(req: IncomingMessage, res: ServerResponse): Promise<void> {
  req.resume();
  // 'close' too: a client that gives up mid-upload never sends the end.
  if (!req.readableEnded) await new Promise((done) => req.once('end', done).once('close', done));
  const message = `Payload Too Large: Request body must not exceed ${MAX_REQUEST_BODY_BYTES} bytes`;
  writeJsonRpcError(res, 413, -32000, message);
}
