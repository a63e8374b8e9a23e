// Before a profile's workload on a server the harness did not write: tools/list, then every workload tool must be
// listed (else one line with a did-you-mean, exit 2), its fixed arguments must fit the listed inputSchema, and the
// tools' annotations give the defaults for which of them have side effects (tool-traits.ts).
import type { PolicySession } from '../client/policy.ts';
import { didYouMean } from '../core/did-you-mean.ts';
import { type DocPath, excerpt, formatPath, ProfileError } from '../core/profile-error.ts';
import type { ToolHints } from '../core/tool-declarations.ts';
import { checkArgsAgainstInputSchema, type InputSchema } from '../profile/input-schema-args.ts';
import type { LoadedProfile } from '../profile/load.ts';

/** What tools/list says of one tool (MCP ToolAnnotations: hints, not guarantees). */
export interface ListedTool {
  name: string;
  inputSchema: InputSchema;
  annotations?: ToolHints;
}

/** At most this many tools/list pages (a server that pages forever is refused). */
const MAX_PAGES = 100;

export async function listTools(session: PolicySession): Promise<Map<string, ListedTool>> {
  const { connection } = await session.get();
  const tools = new Map<string, ListedTool>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const listed = await connection.client.listTools(cursor === undefined ? undefined : { cursor });
    for (const tool of listed.tools) tools.set(tool.name, tool as ListedTool);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}

/** Lists the server's tools and checks the workload against them; a mismatch is a ProfileError naming the profile. */
export async function preflight(loaded: LoadedProfile, session: PolicySession): Promise<Map<string, ListedTool>> {
  const { file, profile } = loaded;
  const fail = (path: DocPath, problem: string): never => {
    throw new ProfileError(file, formatPath(path), problem);
  };
  let tools: Map<string, ListedTool>;
  try {
    tools = await listTools(session);
  } catch (error) {
    return fail(
      ['target'],
      `the server did not list its tools (tools/list: ${(error as Error).message.slice(0, 200)})`,
    );
  }
  const names = [...tools.keys()];
  const known = (tool: string, path: DocPath) => {
    if (!tools.has(tool))
      fail(
        path,
        `the server has no tool ${excerpt(tool)}${didYouMean(tool, names)}; it lists: ${names.join(', ') || 'none'}`,
      );
  };
  profile.workload.mix.forEach((item, i) => {
    known(item.tool, ['workload', 'mix', i, 'tool']);
    if (item.statusTool !== undefined) known(item.statusTool, ['workload', 'mix', i, 'statusTool']);
    checkArgsAgainstInputSchema(item, i, tools.get(item.tool)!.inputSchema, fail);
  });
  return tools;
}
