// Target kind cassette is a stdio target whose command is Faultline's own replay server: everything a foreign stdio
// server gets (the stdio edge, crash and restart, or the HTTP bridge with `over: http`) the replay gets too. The
// cassette is read here first, so a bad one is a single line naming its file and line before anything starts.
import { dirname, resolve } from 'node:path';
import { CassetteError, readCassette } from '../cassette/format.ts';
import type { Profile } from '../profile/schema.ts';
import { serverEntry } from './entry.ts';
import { TargetConfigError } from './remote-target.ts';

type CassetteSpec = Extract<Profile['target'], { kind: 'cassette' }>;
type StdioSpec = Extract<Profile['target'], { kind: 'stdio' }>;

/** The stdio target that replays this cassette (its file relative to the profile's). */
export function cassetteAsStdio(target: CassetteSpec, profileFile = 'profile.yaml'): StdioSpec {
  const file = resolve(dirname(profileFile), target.file);
  try {
    readCassette(file);
  } catch (error) {
    if (error instanceof CassetteError) throw new TargetConfigError(`target.file ${error.message}`);
    throw error;
  }
  return {
    kind: 'stdio',
    command: process.execPath,
    args: [...serverEntry('cassette-main'), file],
    env: {},
    ...(target.over && { over: target.over }),
  };
}
