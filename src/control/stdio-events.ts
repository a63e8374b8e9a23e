// The stdio server's side channel to the harness: with --events, each world event (events.ts) is written to
// stderr as `@faultline {json}` (one line, synchronous on a Linux pipe), so the harness keeps them even when the
// process is killed. Other stderr lines are ordinary logs.
import type { WorldEvent } from './events.ts';

const STDIO_EVENT_PREFIX = '@faultline ';

export function stdioEventLine(event: WorldEvent): string {
  return `${STDIO_EVENT_PREFIX}${JSON.stringify(event)}\n`;
}

/** The event on a stderr line, or undefined for an ordinary log line. */
export function parseStdioEvent(line: string): WorldEvent | undefined {
  if (!line.startsWith(STDIO_EVENT_PREFIX)) return undefined;
  try {
    return JSON.parse(line.slice(STDIO_EVENT_PREFIX.length)) as WorldEvent;
  } catch {
    return undefined;
  }
}
