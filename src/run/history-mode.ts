// Whether a CLI run spills its records to disk (the default) or keeps them whole in memory
// (FAULTLINE_HISTORY=memory, for the memory benchmark's side-by-side figure; the reports are the same either way).
export function spillsHistory(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.FAULTLINE_HISTORY !== 'memory';
}
