// The server `faultline record` records, by the kind of target the flags name (a stdio command, a URL or an
// --mcp-config entry): each kind's way in is its own file.
import type { TargetSpec } from '../../profile/schema.ts';
import { UserError } from '../user-error.ts';
import { recordHttp } from './http.ts';
import type { RecordContext, RecordedServer, RecordTarget } from './recorder.ts';
import { recordStdio } from './stdio.ts';

export type { RecordedServer } from './recorder.ts';

const RECORDERS: { [K in TargetSpec['kind']]?: RecordTarget<Extract<TargetSpec, { kind: K }>> } = {
  stdio: recordStdio,
  http: recordHttp,
};

export function recordedServer(target: TargetSpec | undefined, ctx: RecordContext): RecordedServer {
  const record = target && (RECORDERS[target.kind] as RecordTarget<TargetSpec> | undefined);
  if (!record)
    throw new UserError('record: expected the server to record: --target-command, --target-url or --mcp-config');
  return record(target, ctx);
}
