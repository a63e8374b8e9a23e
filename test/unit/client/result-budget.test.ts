// The client's result budget: an oversized page is re-fetched smaller, or cut with a marker when paging cannot help.
import { describe, expect, it } from 'vitest';
import { fitResult, resultBytes } from '../../../src/client/result-budget.ts';

const page = (items: number, each: number) => ({
  content: [{ type: 'text', text: `${items} results` }],
  structuredContent: { results: Array.from({ length: items }, () => 'x'.repeat(each)) },
});

describe('result budget', () => {
  it('leaves results within budget (or without a budget) alone', async () => {
    const r = page(2, 100);
    expect(await fitResult(r, 10_000, 2, async () => r)).toEqual({ result: r, bytes: resultBytes(r) });
    expect((await fitResult(page(100, 10_000), undefined, 100, async () => r)).action).toBeUndefined();
  });

  it('re-fetches a smaller page when the tool pages', async () => {
    const sizes: number[] = [];
    const out = await fitResult(page(100, 10_000), 100_000, 100, async (n) => {
      sizes.push(n);
      return page(n, 10_000);
    });
    expect(out.action).toBe('paginated');
    expect(out.bytes).toBeGreaterThan(1_000_000);
    expect(resultBytes(out.result)).toBeLessThanOrEqual(100_000);
    expect(sizes).toHaveLength(1);
    expect(sizes[0]).toBeLessThanOrEqual(8);
  });

  it('truncates with a marker when paging cannot shrink it', async () => {
    let refetches = 0;
    const out = await fitResult(page(1, 2_000_000), 50_000, 1, async () => {
      refetches++;
      return page(1, 2_000_000);
    });
    expect(refetches).toBe(0); // a page of one cannot get smaller
    expect(out.action).toBe('truncated');
    expect(resultBytes(out.result)).toBeLessThanOrEqual(50_000);
    expect((out.result.content as { text: string }[])[0].text).toMatch(/truncated by the client/);
  });

  it('never re-fetches a tool without page_size', async () => {
    const out = await fitResult(page(10, 100_000), 50_000, undefined, async () => {
      throw new Error('must not be called');
    });
    expect(out.action).toBe('truncated');
  });
});
