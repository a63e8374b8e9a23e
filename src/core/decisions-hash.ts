// The decision log's hash (core/decision-log.ts says what it covers): the plan decisions' lines grouped by stream,
// streams in sorted order and each stream's lines in the order drawn, hashed as one text. Grouping needs every line
// before the first can be hashed, and a long run draws millions of them in about as many streams: held as one string
// per stream, a 200,000-op run's took 111 MB and a million-op run's about five times that. So the lines are sorted in
// runs of at most RUN_LINES; when there is more than one run, each full run goes to disk (core/line-spill.ts) and the
// runs are merged by stream, the earlier run first for the same stream (which keeps each stream's order). Memory
// holds one run and one line per spilled run, and the hash is the same as grouping in memory gives.
import { createHash } from 'node:crypto';
import TinyQueue from 'tinyqueue';
import type { DecisionRecord } from './history.ts';
import { LineSpill } from './line-spill.ts';

/** Lines sorted in memory at once: a run of them costs about 15 MB while it is sorted. */
const RUN_LINES = 1 << 17;
/** Hashed lines are handed to the hash in pieces of about this many characters (one native call per piece). */
const PIECE_CHARS = 1 << 16;

/** A line: its stream, and the rest of its text after the stream. */
type Line = [stream: string, rest: string];

const byStream = (a: Line, b: Line) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export function decisionsSha256(records: Iterable<DecisionRecord>, runLines = RUN_LINES): string {
  const spilled: LineSpill[] = [];
  let run: Line[] = [];
  for (const r of records) {
    if (r.keyed) continue;
    run.push([r.stream, `\t${r.what}\t${String(r.value)}\n`]);
    if (run.length < runLines) continue;
    spilled.push(spill(run.sort(byStream)));
    run = [];
  }
  // Array sort is stable: a stream's lines keep the order they were drawn in.
  const last = run.sort(byStream).values();
  const lines = spilled.length === 0 ? last : merged([...spilled.map((s) => s.all() as Iterator<Line>), last]);
  const hash = createHash('sha256');
  let piece = '';
  for (const [stream, rest] of lines) {
    piece += stream + rest;
    if (piece.length < PIECE_CHARS) continue;
    hash.update(piece);
    piece = '';
  }
  hash.update(piece);
  return hash.digest('hex');
}

function spill(run: readonly Line[]): LineSpill {
  const file = new LineSpill('decision-hash');
  for (const line of run) file.append(line);
  return file;
}

/** The runs' lines merged by stream; for the same stream, the earlier run's first. */
function* merged(runs: Iterator<Line>[]): Generator<Line> {
  const heads = new TinyQueue<{ line: Line; run: number }>([], (a, b) => byStream(a.line, b.line) || a.run - b.run);
  const take = (run: number) => {
    const next = runs[run].next();
    if (!next.done) heads.push({ line: next.value, run });
  };
  for (let run = 0; run < runs.length; run++) take(run);
  for (let head = heads.pop(); head; head = heads.pop()) {
    yield head.line;
    take(head.run);
  }
}
