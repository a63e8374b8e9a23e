// The stdio server's side of the MCP-edge seam: a Transport decorator around StdioServerTransport that carries out
// the directive a request was tagged with (stdio-fault.ts) on the real stdout, so the client's reader meets real
// bytes: a non-JSON line, one line over its framing limit, or an answer dribbled out in small chunks. Every write
// goes through one queue, so a slow answer never interleaves with another message mid-line.
import type { Writable } from 'node:stream';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { sleep } from '../core/sleep.ts';
import { directiveOf, STDIO_FAULT_META, type StdioFaultDirective } from '../faults/edge/stdio/directive.ts';

function write(out: Writable, data: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (out.write(data, (error) => error && reject(error))) resolve();
    else out.once('drain', resolve);
  });
}

/** The answer padded (in result._meta) so its line is at least `bytes` long. */
function padded(message: JSONRPCMessage, bytes: number): JSONRPCMessage {
  const size = JSON.stringify(message).length + 1;
  if (size >= bytes || !isJSONRPCResultResponse(message)) return message;
  const filler = 'x'.repeat(bytes - size + 64);
  return { ...message, result: { ...message.result, _meta: { ...message.result._meta, 'faultline/padding': filler } } };
}

export class StdioOutputFaults implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly directives = new Map<string | number, StdioFaultDirective>();
  private queue: Promise<void> = Promise.resolve();
  /** What was done, by directive kind. */
  readonly applied: Record<string, number> = {};

  constructor(
    private readonly inner: Transport,
    /** The stream inner writes to (process.stdout for StdioServerTransport). */
    private readonly out: Writable,
  ) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) {
        const directive = directiveOf(message.params?._meta);
        if (directive) {
          this.directives.set(message.id as string | number, directive);
          delete (message.params!._meta as Record<string, unknown>)[STDIO_FAULT_META];
        }
      }
      this.onmessage?.(message, extra);
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const done = this.queue.then(() => this.sendNow(message, options));
    this.queue = done.catch(() => undefined);
    return done;
  }

  private async sendNow(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) ? message.id : undefined;
    const directive = id === undefined ? undefined : this.directives.get(id);
    if (!directive) return this.inner.send(message, options);
    this.directives.delete(id!);
    this.applied[directive.kind] = (this.applied[directive.kind] ?? 0) + 1;
    switch (directive.kind) {
      case 'malformed-line':
        await write(this.out, `${directive.text.replace(/\n/g, ' ')}\n`);
        if (directive.mode === 'before') await this.inner.send(message, options);
        return;
      case 'oversized-line':
        return this.inner.send(padded(message, directive.bytes), options);
      case 'slow-write': {
        const line = `${JSON.stringify(message)}\n`;
        const step = Math.max(1, directive.chunkBytes);
        for (let at = 0; at < line.length; at += step) {
          if (at > 0) await sleep(directive.delayMs);
          await write(this.out, line.slice(at, at + step));
        }
        return;
      }
    }
  }
}
