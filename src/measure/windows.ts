// Which ops a fault window touches. A window that was never removed lasts until the end of the run.
import type { FaultWindow } from '../core/history.ts';
import type { RunFrame } from './accumulator.ts';

/** An op belongs to a window when its [start, end] interval overlaps the window's [on, off]. */
export function overlaps(startMs: number, endMs: number, window: FaultWindow, run: Pick<RunFrame, 'endMs'>): boolean {
  return startMs <= (window.offMs ?? run.endMs) && endMs >= window.onMs;
}
