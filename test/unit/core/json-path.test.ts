import { describe, expect, it } from 'vitest';
import { parsePath, selectPath } from '../../../src/core/json-path.ts';

const graph = {
  entities: [
    { name: 'a', tags: ['x', 'y'] },
    { name: 'b', tags: [] },
  ],
  content: 'text',
};
const sel = (path: string, value: unknown = graph) => selectPath(value, parsePath(path));

describe('json path', () => {
  it('selects names, indexes and every element', () => {
    expect(sel('entities[*].name')).toEqual(['a', 'b']);
    expect(sel('entities[0].name')).toEqual(['a']);
    expect(sel('entities[*].tags[*]')).toEqual(['x', 'y']);
    expect(sel('content')).toEqual(['text']);
    expect(sel('')).toEqual([graph]);
    expect(sel('[*]', [1, 2])).toEqual([1, 2]);
  });

  it('selects nothing where a step does not apply', () => {
    expect(sel('missing.name')).toEqual([]);
    expect(sel('entities[5].name')).toEqual([]);
    expect(sel('content[*]')).toEqual([]);
    expect(sel('entities.name')).toEqual([]); // a property of an array is not its elements'
    expect(sel('toString')).toEqual([]); // own properties only
  });

  it('refuses bad syntax with the offset', () => {
    expect(() => parsePath('entities[x]')).toThrow(/unexpected "\[x\]" at 8/);
    expect(() => parsePath('.name')).toThrow(/at 0/);
    expect(() => parsePath('a..b')).toThrow(/at 1/);
  });
});
