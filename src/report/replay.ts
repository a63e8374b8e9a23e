// The commands that reproduce a profile's run: replay from the report, or the same run spelled out.
import type { ProfileReport } from '../measure/run-report.ts';

/** `faultline replay <report.json>` when the report's path is known, else undefined. */
function replayFromReport(reportPath: string | undefined): string | undefined {
  return reportPath ? `faultline replay ${shellWord(reportPath)}` : undefined;
}

/** `faultline run <file> --seed N --policy P`, or undefined for a profile with no file (built in code). */
function rerunCommand(p: Pick<ProfileReport, 'file' | 'seed' | 'policy'>): string | undefined {
  return p.file ? `faultline run ${shellWord(p.file)} --seed ${p.seed} --policy ${shellWord(p.policy)}` : undefined;
}

/** Every command that reproduces the profile, most direct first. */
export function replayCommands(p: Pick<ProfileReport, 'file' | 'seed' | 'policy'>, reportPath?: string): string[] {
  return [rerunCommand(p), replayFromReport(reportPath)].filter((c): c is string => c !== undefined);
}

function shellWord(s: string): string {
  return /^[\w./@:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
