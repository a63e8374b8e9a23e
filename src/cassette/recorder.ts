// Writing a cassette while messages pass: a transport to the recorded server is wrapped so that what the client
// sends and what the server answers are each one line, in the order they crossed, with the time since the
// recording began and the session they belong to. Arguments and results lose their secrets (core/redact.ts).
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { redactSecrets } from '../core/redact.ts';
import { CASSETTE_VERSION, type CassetteHeader, type CassetteLine } from './format.ts';

export class CassetteWriter {
  private readonly out: WriteStream;
  private readonly began = performance.now();
  private sessions = 0;
  /** Messages written so far. */
  messages = 0;

  constructor(file: string, target: string) {
    this.out = createWriteStream(file, { flags: 'w' });
    const header: CassetteHeader = {
      cassette: 'faultline',
      version: CASSETTE_VERSION,
      recordedAt: new Date().toISOString(),
      target,
    };
    this.out.write(`${JSON.stringify(header)}\n`);
  }

  /** A name for the next session (s1, s2, …). */
  nextSession(): string {
    return `s${++this.sessions}`;
  }

  write(session: string, from: CassetteLine['from'], message: JSONRPCMessage): void {
    const t = Math.round((performance.now() - this.began) * 10) / 10;
    const line: CassetteLine = { t, session, from, message: redactSecrets(message) as CassetteLine['message'] };
    this.messages++;
    this.out.write(`${JSON.stringify(line)}\n`);
  }

  /** Flushes and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(resolve));
  }
}

/** `server` with every message that crosses it written to the cassette as one session. */
export function recorded(server: Transport, cassette: CassetteWriter): Transport {
  const session = cassette.nextSession();
  const tap: Transport = {
    start: () => server.start(),
    close: () => server.close(),
    send: (message, options) => {
      cassette.write(session, 'client', message);
      return server.send(message, options);
    },
  };
  server.onmessage = (message, extra) => {
    cassette.write(session, 'server', message);
    tap.onmessage?.(message, extra);
  };
  server.onclose = () => tap.onclose?.();
  server.onerror = (error) => tap.onerror?.(error);
  return tap;
}
