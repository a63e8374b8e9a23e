// Response writers that reproduce Go's net/http output byte for byte where clients can see it.
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ApiError } from './errors.ts';

/** A routed reply's head: its headers after the request id hlog gives each routed request (one object, so
 * node:http takes it as it is rather than merging it into headers set one by one). */
function writeHead(res: ServerResponse, status: number, headers: Record<string, string | number> = {}): void {
  res.writeHead(status, { 'X-Toxiproxy-Request-Id': requestId(), ...headers });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const data = typeof body === 'string' ? body : JSON.stringify(body);
  writeHead(res, status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(data) });
  res.end(data);
}

/** 204 No Content: a reply with no body. */
export function sendNoContent(res: ServerResponse): void {
  writeHead(res, 204);
  res.end();
}

const TEXT_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/** Go's http.Error: text/plain content type, nosniff, message plus newline. */
export function sendText(res: ServerResponse, status: number, text: string): void {
  const data = `${text}\n`;
  writeHead(res, status, { ...TEXT_HEADERS, 'Content-Length': Buffer.byteLength(data) });
  res.end(data);
}

// gorilla/mux answers a path no route has, or a method its route lacks, before any middleware runs: without
// hlog's request id.

export function sendNotFound(res: ServerResponse): void {
  const data = '404 page not found\n';
  res.writeHead(404, { ...TEXT_HEADERS, 'Content-Length': data.length });
  res.end(data);
}

export function sendMethodNotAllowed(res: ServerResponse): void {
  res.writeHead(405, { 'Content-Length': 0 });
  res.end();
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
function requestId(): string {
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
