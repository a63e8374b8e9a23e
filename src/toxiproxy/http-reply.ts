// Response writers that reproduce Go's net/http output byte for byte where clients can see it.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ApiError } from './errors.ts';

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const data = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(data) });
  res.end(data);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

/** Go's http.Error: text/plain content type, nosniff, message plus newline. */
export function sendText(res: ServerResponse, status: number, text: string): void {
  const data = `${text}\n`;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(data),
  });
  res.end(data);
}

/** apiError in api.go: the JSON error body sent through http.Error, so the content type says text/plain. */
export function sendApiError(res: ServerResponse, error: ApiError): void {
  sendText(res, error.status, JSON.stringify(error.toJSON()));
}

const BASE32_HEX = '0123456789abcdefghijklmnopqrstuv';

/** An xid's parts, as hlog's request ids: 4 bytes of Unix seconds, 5 fixed per process (xid's machine id and
 * pid) and a 3-byte counter from a random start; plus a zero byte so 20 five-bit characters cover it. */
const idBytes = Buffer.alloc(13);
randomBytes(5).copy(idBytes, 4);
let idCounter = randomBytes(3).readUIntBE(0, 3);

/** A 20-character base32hex id, the shape of the xid that hlog puts in X-Toxiproxy-Request-Id. */
export function requestId(): string {
  idBytes.writeUInt32BE(Math.floor(Date.now() / 1000) >>> 0, 0);
  idCounter = (idCounter + 1) & 0xffffff;
  idBytes.writeUIntBE(idCounter, 9, 3);
  let bits = 0;
  let value = 0;
  let id = '';
  for (const byte of idBytes) {
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5 && id.length < 20) {
      id += BASE32_HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return id;
}
