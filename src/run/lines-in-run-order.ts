// Progress lines of runs that overlap (the next run's set-up during the last one's drain) go out in run order: a
// run's lines wait until every run before it has ended, then go out as they are said.

export class LinesInRunOrder {
  /** The first run that has not ended: its lines go out as said. */
  private current = 0;
  private readonly held = new Map<number, string[]>();
  private readonly ended = new Set<number>();

  constructor(private readonly say: (line: string) => void) {}

  /** What run `run` says its lines through. */
  of(run: number): (line: string) => void {
    return (line) => {
      if (run === this.current) this.say(line);
      else if (this.held.has(run)) this.held.get(run)!.push(line);
      else this.held.set(run, [line]);
    };
  }

  /** Run `run` has ended: the runs after it whose turn it now is say what they held. */
  end(run: number): void {
    this.ended.add(run);
    while (this.ended.has(this.current)) {
      this.ended.delete(this.current);
      this.current += 1;
      for (const line of this.held.get(this.current) ?? []) this.say(line);
      this.held.delete(this.current);
    }
  }
}
