// How a profile sees the effects of a server we did not write (`effects:`): which argument of each side-effecting
// tool carries the op's unique value (its effect key), and the read-back probes: MCP calls that read the server's
// state after the run, and how to find the effect keys in their results (a path, or a module for anything harder).
// Each key found is one effect; reconcile attributes it to the op whose argument had that value. Or, for a Node
// server, dependency interception: its outbound requests to the named dependencies (targets/interception.ts).
import { z } from 'zod';
import { positiveDurationSchema } from '../core/duration.ts';
import { parsePath } from '../core/json-path.ts';

const PATH_SYNTAX = 'names joined by dots, [N] for an element, [*] for every element, e.g. entities[*].name';

const pathSchema = z
  .string()
  .superRefine((text, ctx) => {
    try {
      parsePath(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  })
  .describe(`a path over JSON (${PATH_SYNTAX})`);

const probeSchema = z
  .strictObject({
    tool: z.string().min(1).describe('the MCP tool that reads the server state, e.g. read_graph'),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${tmpdir} placeholder is literal text
    args: z.record(z.string(), z.unknown()).default({}).describe('its arguments (${tmpdir} works in strings)'),
    path: pathSchema
      .optional()
      .describe(
        "where the effect keys are in the tool's result: over its structuredContent, or else over its first " +
          `text content parsed as JSON; each value selected is one effect (${PATH_SYNTAX})`,
      ),
    module: z
      .string()
      .min(1)
      .optional()
      .describe(
        'a JS/TS module, relative to the profile file, whose default export maps the CallToolResult to the ' +
          'effect keys (an array of strings: one per effect, a repeated key is a duplicate)',
      ),
    during: z
      .strictObject({ every: positiveDurationSchema.describe('how often, e.g. 500ms') })
      .optional()
      .describe(
        'also call this probe while the workload runs, every so often: the report shows when each key first ' +
          'appeared and which keys seen during the run were gone at the end (a failed sample is counted, not fatal)',
      ),
  })
  .refine((p) => (p.path === undefined) !== (p.module === undefined), {
    message: 'expected exactly one of path or module',
  });

const interceptedDependencySchema = z
  .strictObject({
    url: z
      .string()
      .regex(/^https?:\/\/[^/]+/, 'expected an http(s) URL pattern, e.g. http://127.0.0.1:*/charge')
      .describe(
        "the server's outbound requests this dependency takes: a URL without query, `*` for any characters but /, " +
          'e.g. http://127.0.0.1:*/charge',
      ),
    method: z
      .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
      .optional()
      .describe('only requests with this method (default every method)'),
  })
  .describe(
    'one dependency of the server: its requests get the dependency faults, and each one it accepts is an effect',
  );

const interceptSchema = z
  .strictObject({
    dependencies: z.array(interceptedDependencySchema).min(1).describe('the outbound HTTP calls to intercept'),
  })
  .describe(
    'dependency interception for a Node stdio server: Faultline starts it with an msw preload (NODE_OPTIONS ' +
      '--import) that applies the dependency faults to these outbound requests and records each one the dependency ' +
      'accepted (2xx/3xx) as an effect, attributed by the op key found in its URL or body',
  );

export const effectsSchema = z
  .strictObject({
    keys: z
      .record(z.string().min(1), pathSchema)
      .refine((keys) => Object.keys(keys).length > 0, { message: 'expected at least one tool' })
      .describe(
        "per side-effecting tool: the path into the op's arguments to the value that identifies its effect " +
          '(make it unique per op, e.g. "e-{op}" or { unique: e- })',
      ),
    readBack: z.array(probeSchema).default([]).describe('the calls that read the effects back after the run'),
    intercept: interceptSchema.optional(),
  })
  .refine((e) => e.readBack.length > 0 !== (e.intercept !== undefined), {
    message: 'expected readBack probes or intercept, not both (each would see every effect once more)',
  })
  .describe("how to see a foreign server's effects: each op's key, and read-back probes or dependency interception");

export type EffectsSpec = z.infer<typeof effectsSchema>;
export type ReadBackProbe = EffectsSpec['readBack'][number];
