// Where a profile's history is in a run's histories: under the profile's name, or under `name@pairing` when the
// run ran in several pairings (one profile then has a history per pairing). Every reader looks it up here.

interface Keyed {
  name: string;
  pairing?: string;
}

export function historyKey(report: Keyed, severalPairings: boolean): string {
  return severalPairings && report.pairing ? `${report.name}@${report.pairing}` : report.name;
}

/** The report's history, whichever way the run keyed it. */
export function historyOf<H>(histories: Readonly<Record<string, H>> | undefined, report: Keyed): H | undefined {
  if (!histories) return undefined;
  return (report.pairing && histories[`${report.name}@${report.pairing}`]) || histories[report.name];
}
