// The stdio server's side of the MCP-edge seam: a Transport decorator around StdioServerTransport that carries out
// the directive a request was tagged with (faults/edge/stdio/) on the real stdout with that kind's writer, so the
// client's reader meets real bytes: a non-JSON line, one line over its framing limit, or an answer dribbled out in
// small chunks. Every write goes through one queue, so a slow answer never interleaves with another message.
import type { Writable } from 'node:stream';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import type { StdioEdgeFault } from '../faults/edge/stdio/define.ts';
import { STDIO_FAULT_META, type StdioFaultDirective } from '../faults/edge/stdio/directive.ts';
import { stdioFaultOf } from '../faults/edge/stdio/index.ts';

function write(out: Writable, data: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (out.write(data, (error) => error && reject(error))) resolve();
    else out.once('drain', resolve);
  });
}

export class StdioOutputFaults implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly tagged = new Map<string | number, { fault: StdioEdgeFault; directive: StdioFaultDirective }>();
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
        const tag = stdioFaultOf(message.params?._meta);
        if (tag) {
          this.tagged.set(message.id as string | number, tag);
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
    const tag = id === undefined ? undefined : this.tagged.get(id);
    if (!tag) return this.inner.send(message, options);
    this.tagged.delete(id!);
    const { fault, directive } = tag;
    this.applied[directive.kind] = (this.applied[directive.kind] ?? 0) + 1;
    await fault.write(message, directive as never, {
      write: (data) => write(this.out, data),
      send: (spoiled) => this.inner.send(spoiled, options),
    });
  }
}
