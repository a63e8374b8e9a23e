// The append-only JSON-lines file under the history's records and the world mirror (core/line-spill.ts).
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSpill } from '../../../src/core/line-spill.ts';

describe('LineSpill', () => {
  it('gives back every value in order and each one by its place, across buffer and chunk edges', () => {
    const spill = new LineSpill('test');
    // Lines far bigger than the 1 MiB read chunk, multi-byte characters, and many small ones between them.
    const values: unknown[] = [
      { a: 1 },
      'é'.repeat(700_000),
      ...Array.from({ length: 5000 }, (_, i) => ({ i, s: `line\n${i}\u2028"` })),
      ['x'.repeat(3 * 1024 * 1024)],
      null,
    ];
    const places = values.map((v) => spill.append(v));
    expect([...spill.all()]).toEqual(values);
    for (const i of [0, 1, 2, 4000, values.length - 2, values.length - 1])
      expect(spill.read(places[i].offset, places[i].bytes)).toEqual(values[i]);
    expect(spill.lines).toBe(values.length);
  });

  it('reads what was appended after an earlier read (the write buffer is flushed first)', () => {
    const spill = new LineSpill('test');
    spill.append(1);
    expect([...spill.all()]).toEqual([1]);
    const place = spill.append({ late: true });
    expect(spill.read(place.offset, place.bytes)).toEqual({ late: true });
    expect([...spill.all()]).toEqual([1, { late: true }]);
  });

  it('gives every value to two passes read side by side (each reads through its own chunk)', () => {
    const spill = new LineSpill('test');
    // Over 2 MiB of lines: each pass refills its chunk while the other is half-way through its own.
    const values = Array.from({ length: 30_000 }, (_, i) => ({ i, pad: 'p'.repeat(i % 150) }));
    for (const v of values) spill.append(v);
    const [a, b] = [spill.all(), spill.all()];
    const [fromA, fromB]: unknown[][] = [[], []];
    b.next(); // b starts a line ahead, so the two never read the same place at once
    for (let r = b.next(); !r.done; r = b.next()) {
      fromB.push(r.value);
      fromA.push(a.next().value);
    }
    for (let r = a.next(); !r.done; r = a.next()) fromA.push(r.value);
    expect(fromA).toEqual(values);
    expect(fromB).toEqual(values.slice(1));
    expect([...spill.all()]).toEqual(values);
  });

  it('gives only the first lines when asked for a number of them', () => {
    const spill = new LineSpill('test');
    for (let i = 0; i < 5; i++) spill.append(i);
    expect([...spill.all(3)]).toEqual([0, 1, 2]);
    expect([...spill.all(0)]).toEqual([]);
    expect([...spill.all(9)]).toEqual([0, 1, 2, 3, 4]);
  });

  it('reads a spill that outgrew what an earlier pass read it through (its chunk and window are sized to the file)', () => {
    const spill = new LineSpill('test');
    const small = spill.append({ first: 1 });
    expect([...spill.all()]).toEqual([{ first: 1 }]);
    expect(spill.read(small.offset, small.bytes)).toEqual({ first: 1 });
    // Now far bigger than the file was at the first pass and read: both read through larger buffers.
    const values = Array.from({ length: 20_000 }, (_, i) => ({ i, pad: 'q'.repeat(i % 90) }));
    const places = values.map((v) => spill.append(v));
    expect([...spill.all()]).toEqual([{ first: 1 }, ...values]);
    for (const i of [0, 9_999, 19_999]) expect(spill.read(places[i].offset, places[i].bytes)).toEqual(values[i]);
  });

  it('round-trips any JSON values', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 40 }), (values) => {
        const spill = new LineSpill('test');
        const places = values.map((v) => spill.append(v));
        const normal = values.map((v) => JSON.parse(JSON.stringify(v)));
        expect([...spill.all()]).toEqual(normal);
        for (const [i, p] of places.entries()) expect(spill.read(p.offset, p.bytes)).toEqual(normal[i]);
      }),
      { numRuns: 100 },
    );
  });

  it('leaves no file behind: the folder is gone as soon as the file is open', () => {
    const spill = new LineSpill('leftover-check');
    spill.append('x');
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('faultline-leftover-check-'))).toEqual([]);
  });
});
