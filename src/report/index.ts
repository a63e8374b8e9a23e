// Public surface of src/report.
export { buildProfileReport, buildRunReport, notesFor, type ProfileInput, type RunInput, verdictOf } from './build.ts';
export { type ConsoleOptions, formatConsoleSummary } from './console.ts';
export { renderHtml } from './html.ts';
export { renderJson } from './json.ts';
export { renderJunit } from './junit.ts';
export { renderMarkdown } from './markdown.ts';
export { renderTimelineSvg } from './timeline.ts';
export { renderTrace, type TraceEvent, traceEvents } from './trace.ts';
export type { ProfileReport, RunReport, Verdict } from './types.ts';
export { REPORT_FILES, writeReports } from './write.ts';
