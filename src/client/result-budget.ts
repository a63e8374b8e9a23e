// The client's context-window guard (the seeds: cut oversized results; truncate, summarise or paginate). A result
// over budget is first re-fetched as a smaller page when the tool pages (a numeric page_size; the model keeps
// the nextCursor to read on), else cut to the budget with a marker saying so.

export type BudgetedResult = { content?: unknown; structuredContent?: unknown; isError?: boolean };

export interface BudgetOutcome<R extends BudgetedResult> {
  result: R;
  /** Size of the result as first received, in bytes of JSON. */
  bytes: number;
  action?: 'truncated' | 'paginated';
}

/** Re-runs the call with another page size. */
export type Refetch<R> = (pageSize: number) => Promise<R>;

const MAX_REFETCHES = 2;

export function resultBytes(result: BudgetedResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}

export async function fitResult<R extends BudgetedResult>(
  result: R,
  budget: number | undefined,
  pageSize: unknown,
  refetch: Refetch<R>,
): Promise<BudgetOutcome<R>> {
  const bytes = resultBytes(result);
  if (budget === undefined || bytes <= budget || result.isError) return { result, bytes };
  let size = typeof pageSize === 'number' && Number.isInteger(pageSize) ? pageSize : undefined;
  let current = bytes;
  for (let i = 0; size !== undefined && size > 1 && i < MAX_REFETCHES; i++) {
    // Scale the page to the budget, with a margin; at least halve it.
    size = Math.max(1, Math.min(Math.floor(size / 2), Math.floor((size * budget * 0.8) / current)));
    // A failed re-fetch (timeout, transport) must not lose the result the client already holds: cut that instead.
    const page = await refetch(size).catch(() => undefined);
    if (page === undefined || page.isError) break;
    const pageBytes = resultBytes(page);
    if (pageBytes <= budget) return { result: page, bytes, action: 'paginated' };
    // A smaller page that is not smaller in bytes (one huge item): paging cannot help.
    if (pageBytes > current / 2) break;
    current = pageBytes;
  }
  return { result: truncate(result, budget, bytes), bytes, action: 'truncated' };
}

/** The result's text cut to the budget; structured content (which a cut would make invalid) is dropped. */
function truncate<R extends BudgetedResult>(result: R, budget: number, bytes: number): R {
  const texts = ((result.content as { type?: string; text?: string }[] | undefined) ?? [])
    .filter((c) => c?.type === 'text' && typeof c.text === 'string')
    .map((c) => c.text!);
  const whole = texts.length > 0 ? texts.join('\n') : JSON.stringify(result.structuredContent ?? '');
  const marker = `\n[truncated by the client: the result was ${bytes} bytes, the budget is ${budget}]`;
  const text = whole.slice(0, Math.max(0, budget - marker.length - 64)) + marker;
  return { content: [{ type: 'text', text }] } as R;
}
