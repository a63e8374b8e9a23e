// A fault window's hits (what it actually did, counted by its seam), when the run recorded them: from the report's
// fault windows (metrics.faultWindows) or the history's; null there (the seam cannot count) reads as not counted.
export function windowHits(...sources: ReadonlyArray<object | undefined>): number | undefined {
  for (const source of sources) {
    const hits = (source as { hits?: unknown } | undefined)?.hits;
    if (typeof hits === 'number') return hits;
  }
  return undefined;
}

/** "hits: 12", or undefined when not recorded. */
export function fmtHits(hits: number | undefined): string | undefined {
  return hits === undefined ? undefined : `hits: ${hits}`;
}
