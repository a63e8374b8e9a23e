// A cassette: one MCP session or more as recorded on the wire, one JSON line per message. The first line is a
// header ({"cassette":"faultline","version":1,...}); every other line is
// {"t": ms since the recording began, "session": "s1", "from": "client" | "server", "message": <JSON-RPC>}.
// Sessions keep their own id spaces (ids repeat across sessions). Secrets are redacted as trace.jsonl redacts them.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const CASSETTE_VERSION = 1;

const cassetteHeader = z.object({
  cassette: z.literal('faultline'),
  version: z.literal(CASSETTE_VERSION),
  recordedAt: z.string(),
  target: z.string(),
});

const jsonRpc = z.looseObject({ jsonrpc: z.literal('2.0') });

const cassetteLine = z.strictObject({
  t: z.number().nonnegative(),
  session: z.string().min(1),
  from: z.enum(['client', 'server']),
  message: jsonRpc,
});

export type CassetteHeader = z.infer<typeof cassetteHeader>;
export type CassetteLine = z.infer<typeof cassetteLine>;

export interface Cassette {
  header: CassetteHeader;
  lines: CassetteLine[];
}

/** A cassette that cannot be read, named by file and line. */
export class CassetteError extends Error {}

/** Reads and checks a whole cassette; the first bad line is one error naming the file and the line. */
export function readCassette(file: string): Cassette {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CassetteError(`${file}: cannot read the cassette (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  const rows = text.split('\n').filter((row) => row.trim() !== '');
  const parse = <T>(schema: z.ZodType<T>, row: string, index: number, expected: string): T => {
    let value: unknown;
    try {
      value = JSON.parse(row);
    } catch {
      throw new CassetteError(`${file}:${index + 1}: expected ${expected}, found text that is not JSON`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CassetteError(
        `${file}:${index + 1}: ${issue.path.join('.') || 'line'}: expected ${expected} (${issue.message})`,
      );
    }
    return parsed.data;
  };
  if (rows.length === 0) throw new CassetteError(`${file}: empty; expected a cassette written by faultline record`);
  const header = parse(
    cassetteHeader,
    rows[0],
    0,
    `the header {"cassette":"faultline","version":${CASSETTE_VERSION},...} written by faultline record`,
  );
  const lines = rows
    .slice(1)
    .map((row, i) => parse(cassetteLine, row, i + 1, 'a recorded message {t, session, from, message}'));
  return { header, lines };
}
