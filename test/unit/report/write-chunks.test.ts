// A report file written from its pieces through one reused buffer (report/write-chunks.ts): the same bytes as the
// pieces joined, across buffer edges, with multi-byte and lone-surrogate text and pieces bigger than the buffer.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChunks } from '../../../src/report/write-chunks.ts';

const dir = mkdtempSync(join(tmpdir(), 'faultline-write-chunks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeChunks', () => {
  it('writes the bytes of the pieces joined, whatever the buffer size', async () => {
    const pieces = [
      ...Array.from({ length: 3000 }, (_, i) => `{"i":${i},"t":"${'é€😀'.repeat(i % 7)}\ud800"}\n`),
      'x'.repeat(5000),
      '',
      '€'.repeat(40),
      ...Array.from({ length: 500 }, (_, i) => `${i}\n`),
    ];
    const joined = Buffer.from(pieces.join(''), 'utf8');
    for (const chunkBytes of [64, 1000, 1 << 20]) {
      const path = join(dir, `out-${chunkBytes}.jsonl`);
      await writeChunks(path, pieces, { chunkBytes });
      expect(readFileSync(path).equals(joined), `buffer of ${chunkBytes} B`).toBe(true);
    }
  });

  // A lazy renderer works when its next piece is taken; the event loop must get a whole turn between such pieces,
  // timers included (the progress line's), not only the check phase a setImmediate reaches.
  it('lets the event loop run between pieces once a slice of work has gone by, and not before', async () => {
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const seen = async (sliceMs: number) => {
      const at: number[] = [];
      const pieces = function* () {
        for (let i = 0; i < 5; i++) {
          at.push(turns);
          yield `${i}\n`;
        }
      };
      await writeChunks(join(dir, `slices-${sliceMs}.txt`), pieces(), { sliceMs });
      return at.slice(1).map((turn, i) => turn - at[i]);
    };
    try {
      expect((await seen(0)).every((n) => n >= 1)).toBe(true);
      expect(await seen(Number.POSITIVE_INFINITY)).toEqual([0, 0, 0, 0]);
    } finally {
      ticking = false;
    }
  });

  it('writes an empty file for no pieces, and replaces what was there', async () => {
    const path = join(dir, 'empty.jsonl');
    await writeChunks(path, ['something']);
    await writeChunks(path, []);
    expect(readFileSync(path, 'utf8')).toBe('');
  });
});
