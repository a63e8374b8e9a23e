// The client's transport to any stdio server: it spawns the child (as the SDK's StdioClientTransport does: same
// inherited environment, same framing through the SDK's ReadBuffer and its limit) and puts the stdio edge seam on
// the pipe between them: the controller picks requests (seeded), the request goes to the child's stdin through the
// kind's `request` writer, and the child's stdout goes through the AnswerInterposer to the reader. The server does
// nothing for it, so the faults work on a server we did not write. When the reader refuses a line over its limit
// the transport closes (the SDK would kill the child the same way) and every request in flight is answered with
// that cause instead of a bare "Connection closed".
import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough, type Writable } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { traceOfMessage } from '../core/logical-key.ts';
import { socketCause } from '../core/socket-cause.ts';
import type { StdioEdgeController } from '../faults/edge/stdio/controller.ts';
import type { StdioOut } from '../faults/edge/stdio/directive.ts';
import { stdioFaultOf } from '../faults/edge/stdio/index.ts';
import { AnswerInterposer, type Picked } from '../faults/edge/stdio/interposer.ts';
import { signalGroup } from './stdio-children.ts';

/** The SDK's default stdio framing limit. */
const DEFAULT_LIMIT = 10 * 1024 * 1024;
const CLOSE_GRACE_MS = 2000;

export interface StdioChildParams {
  command: string;
  args?: readonly string[];
  /** Added to the SDK's default inherited environment (HOME, PATH, ...). */
  env?: Record<string, string>;
  cwd?: string;
  /** The reader's framing limit, bytes (the SDK's default 10 MiB). */
  maxBufferSize?: number;
}

export class InterposedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** The child's stderr, readable before start (nothing it writes early is lost). */
  readonly stderr = new PassThrough();
  protocolVersion?: string;
  private child?: ChildProcess;
  private childPid?: number;
  /** How the child ended, once it did: its exit code or the signal that killed it. */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  private readonly reader: ReadBuffer;
  private readonly picked: Picked = new Map();
  private readonly answers: AnswerInterposer;
  /** Requests sent and not answered yet. */
  private readonly pending = new Set<string | number>();
  private stdinQueue: Promise<void> = Promise.resolve();

  constructor(
    private readonly params: StdioChildParams,
    private readonly edge: StdioEdgeController,
  ) {
    const limit = params.maxBufferSize ?? DEFAULT_LIMIT;
    this.reader = new ReadBuffer({ maxBufferSize: limit });
    this.answers = new AnswerInterposer((bytes) => this.read(bytes), this.picked, limit);
  }

  /** The child's pid once spawned (kept after it exits, for a crash fault's kill). */
  get pid(): number | undefined {
    return this.childPid;
  }

  setProtocolVersion = (version: string): void => {
    this.protocolVersion = version;
  };

  start(): Promise<void> {
    if (this.child) throw new Error('InterposedStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, [...(this.params.args ?? [])], {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // Its own process group: a kill reaches what a wrapper (npx, a script) started too (signalGroup).
        detached: true,
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        this.childPid = child.pid;
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
      });
      child.on('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.answers.push(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    if (!isJSONRPCRequest(message)) return this.toStdin(stdin, (out) => out.send(message));
    const { id } = message;
    this.pending.add(id);
    const key = this.edge.keys.next(traceOfMessage(message));
    const directive = this.edge.active > 0 ? this.edge.pick(message.method, key) : undefined;
    const fault = directive && stdioFaultOf(directive);
    if (directive && fault) this.picked.set(id, directive);
    const sent = this.toStdin(stdin, (out) =>
      directive && fault ? fault.request(message, directive as never, out) : out.send(message),
    );
    sent.catch(() => this.pending.delete(id));
    return sent;
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      // 'close' fires once every process holding the pipes is gone: the real server too, not only a wrapper.
      let closed = false;
      const whenClosed = new Promise<void>((resolve) =>
        child.once('close', () => {
          closed = true;
          resolve();
        }),
      );
      const grace = () => new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
      child.stdin?.end();
      await Promise.race([whenClosed, grace()]);
      if (!closed && child.pid !== undefined) {
        signalGroup(child.pid, 'SIGTERM');
        await Promise.race([whenClosed, grace()]);
      }
      if (!closed && child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    }
    this.reader.clear();
  }

  /**
   * One queue to the child's stdin, so a request writer never interleaves with another message. A write that fails
   * (EPIPE: the child is gone, its 'close' not seen yet) did not deliver the line's last byte, its newline, so the
   * child never read the message: it fails as "Not connected" (nothing sent, reconnect), as a send after 'close'
   * does, not as an unknown client error that leaves a write uncertain.
   */
  private toStdin(stdin: Writable, step: (out: StdioOut) => Promise<void>): Promise<void> {
    const write = (data: string) =>
      new Promise<void>((resolve, reject) => {
        const undelivered = (error: Error) =>
          reject(
            new Error(`Not connected: the server's stdin is closed (${socketCause(error) ?? error.message})`, {
              cause: error,
            }),
          );
        if (stdin.write(data, (error) => error && undelivered(error))) resolve();
        else stdin.once('drain', resolve);
      });
    const done = this.stdinQueue.then(() => step({ write, send: (m) => write(serializeMessage(m)) }));
    this.stdinQueue = done.catch(() => undefined);
    return done;
  }

  /** Bytes that passed the interposer, into the SDK's reader. */
  private read(bytes: Buffer): void {
    try {
      this.reader.append(bytes);
    } catch (error) {
      this.fail(error as Error);
      this.failPending(`stdio framing: ${(error as Error).message}; the SDK closed the transport`);
      this.close().catch(() => undefined);
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.reader.readMessage();
      } catch (error) {
        this.fail(error as Error);
        continue;
      }
      if (message === null) break;
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))
        this.pending.delete(message.id as string | number);
      this.onmessage?.(message);
    }
  }

  private fail(error: Error): void {
    this.edge.noteError(error);
    this.onerror?.(error);
  }

  /** Answers every request in flight with the transport's real cause (the SDK would say "Connection closed"). */
  private failPending(message: string): void {
    const ids = [...this.pending];
    this.pending.clear();
    for (const id of ids)
      this.onmessage?.({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message } });
  }
}
