// How a verdict reads in every report: its label, icon and colours, looked up by name. A verdict this table does
// not know yet (the Verdict union grows) reads as itself in the failure style, never as a pass.
import type { ProfileReport } from '../measure/run-report.ts';
import { detectorThresholds, isDetectorRun } from './detector.ts';

export interface VerdictStyle {
  /** Upper-case label: PASS, FAIL, INERT, ... */
  label: string;
  /** The word a tally uses: passed, failed, inert, ... */
  tallyWord: string;
  icon: string;
  /** ANSI SGR colour code. */
  ansi: number;
  /** Badge background in HTML. */
  css: string;
}

const STYLES: Record<string, VerdictStyle> = {
  pass: { label: 'PASS', tallyWord: 'passed', icon: '✅', ansi: 32, css: '#1a7f37' },
  fail: { label: 'FAIL', tallyWord: 'failed', icon: '❌', ansi: 31, css: '#d1242f' },
  // A fault window that never hit: nothing was tested.
  inert: { label: 'INERT', tallyWord: 'inert', icon: '⚪', ansi: 33, css: '#9a6700' },
  // The machine was too loaded for the profile's timing.
  inconclusive: { label: 'INCONCLUSIVE', tallyWord: 'inconclusive', icon: '❔', ansi: 35, css: '#8250df' },
  interrupted: { label: 'INTERRUPTED', tallyWord: 'interrupted', icon: '⏹️', ansi: 90, css: '#59636e' },
};

/** The verdicts every tally names, in this order, even at 0; unknown verdicts follow. */
export const TALLY_ORDER = Object.keys(STYLES);

export function verdictStyle(verdict: string): VerdictStyle {
  return (
    STYLES[verdict] ?? {
      label: verdict.toUpperCase(),
      tallyWord: verdict,
      icon: '❓',
      ansi: 31,
      css: STYLES.fail.css,
    }
  );
}

/** A negative control that saw the harm it asks for: not a green PASS beside the damage. */
const DETECTOR_FIRED: VerdictStyle = {
  label: 'DETECTOR FIRED',
  tallyWord: 'passed',
  icon: '🎯',
  ansi: 36,
  css: '#0969da',
};

type Badged = Pick<ProfileReport, 'verdict' | 'control' | 'thresholds'>;

/** A profile's badge: a negative control that passed says its detector fired, one that stayed silent says so. */
export function profileBadge(p: Badged): VerdictStyle {
  const style = verdictStyle(p.verdict);
  if (!isDetectorRun(p)) return style;
  if (p.verdict === 'pass') return DETECTOR_FIRED;
  if (p.verdict === 'fail' && detectorThresholds(p).some((t) => !t.ok)) return { ...style, label: 'DETECTOR SILENT' };
  return style;
}

interface TallyEntry {
  verdict: string;
  word: string;
  count: number;
}

/** Profiles per verdict: the five known ones always, then any other in order of appearance. */
function tally(profiles: readonly Pick<ProfileReport, 'verdict'>[]): TallyEntry[] {
  const counts = new Map<string, number>(TALLY_ORDER.map((v) => [v, 0]));
  for (const p of profiles) counts.set(p.verdict, (counts.get(p.verdict) ?? 0) + 1);
  return [...counts].map(([verdict, count]) => ({ verdict, word: verdictStyle(verdict).tallyWord, count }));
}

/** "passed 3 (1 detector fired), failed 1, inert 0, inconclusive 0, interrupted 0" */
export function tallyText(profiles: readonly Badged[]): string {
  const controls = profiles.filter((p) => p.verdict === 'pass' && isDetectorRun(p)).length;
  return tally(profiles)
    .map((t) => {
      const note =
        t.verdict === 'pass' && controls > 0 ? ` (${controls} detector${controls > 1 ? 's' : ''} fired)` : '';
      return `${t.word} ${t.count}${note}`;
    })
    .join(', ');
}
