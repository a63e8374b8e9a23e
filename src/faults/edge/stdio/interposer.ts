// The interposer on a stdio pipe, one direction: the child's stdout on its way to the client's reader. It frames
// the bytes into lines as the SDK does (newline-delimited JSON), lets every line through byte for byte, except the
// answer to a request the controller picked: that one it hands to the fault kind's `answer` writer, which spoils
// it on the way (the reader meets real bytes). Everything leaves through one queue, so a slow answer is never
// overtaken mid-line. A line longer than the reader's framing limit is not held back: its bytes pass at once, so
// the reader refuses it as it would without the interposer.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StdioFaultDirective, StdioOut } from './directive.ts';
import { stdioFaultOf } from './index.ts';

/** The directive for a picked request, by JSON-RPC id. */
export type Picked = Map<string | number, StdioFaultDirective>;

export class AnswerInterposer {
  private held: Buffer = Buffer.alloc(0);
  /** Inside a line over the limit: its bytes pass untouched up to the next newline. */
  private passing = false;
  private queue: Promise<void> = Promise.resolve();
  /** What was done, by directive kind. */
  readonly applied: Record<string, number> = {};

  constructor(
    /** Where the bytes go on: the client's reader. */
    private readonly sink: (bytes: Buffer) => void,
    private readonly picked: Picked,
    private readonly limitBytes: number,
  ) {}

  /** Bytes from the child's stdout. */
  push(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      const nl = rest.indexOf(0x0a);
      if (this.passing) {
        const end = nl === -1 ? rest.length : nl + 1;
        this.enqueue(rest.subarray(0, end));
        if (nl !== -1) this.passing = false;
        rest = rest.subarray(end);
        continue;
      }
      if (nl === -1) {
        this.held = Buffer.concat([this.held, rest]);
        if (this.held.length > this.limitBytes) {
          this.enqueue(this.held);
          this.held = Buffer.alloc(0);
          this.passing = true;
        }
        return;
      }
      const line = Buffer.concat([this.held, rest.subarray(0, nl + 1)]);
      this.held = Buffer.alloc(0);
      rest = rest.subarray(nl + 1);
      this.line(line);
    }
  }

  /** Resolves once everything pushed so far has reached the sink. */
  flushed(): Promise<void> {
    return this.queue;
  }

  private line(line: Buffer): void {
    const message = answerIn(line);
    const directive = message && this.picked.get(message.id);
    const fault = directive && stdioFaultOf(directive);
    if (!message || !directive || !fault) {
      this.enqueue(line);
      return;
    }
    this.picked.delete(message.id);
    this.applied[directive.kind] = (this.applied[directive.kind] ?? 0) + 1;
    this.run(() => fault.answer(message, directive as never, this.out));
  }

  private readonly out: StdioOut = {
    write: async (data) => this.sink(Buffer.from(data)),
    send: async (message) => this.sink(Buffer.from(`${JSON.stringify(message)}\n`)),
  };

  private enqueue(bytes: Buffer): void {
    this.run(async () => this.sink(bytes));
  }

  private run(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch(() => undefined);
  }
}

/** The answer a line carries (a result or error with an id), if it is one. */
function answerIn(line: Buffer): (JSONRPCMessage & { id: string | number }) | undefined {
  try {
    const message = JSON.parse(line.toString('utf8')) as { id?: unknown; method?: unknown };
    const isAnswer = message !== null && typeof message === 'object' && message.method === undefined;
    return isAnswer && (typeof message.id === 'string' || typeof message.id === 'number')
      ? (message as JSONRPCMessage & { id: string | number })
      : undefined;
  } catch {
    return undefined;
  }
}
