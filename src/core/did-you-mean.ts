// "Did you mean …?": the known name closest to a typo by edit distance, when it is close enough to be a typo.

/** The candidate with the smallest edit distance to `name` (case-insensitive), when it is close. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const known of candidates) {
    const d = editDistance(name.toLowerCase(), known.toLowerCase());
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined;
}

/** ` (did you mean "x"?)` when a candidate is close, else the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const hint = closestName(name, candidates);
  return hint ? ` (did you mean "${hint}"?)` : '';
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
