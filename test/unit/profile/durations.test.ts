// Every time parameter of a profile takes a duration text ("600ms", "2s") as well as milliseconds: found in the
// JSON Schema by name and unit, not listed here, so a time field added without the text form fails this test.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DURATION_PATTERN, MS_KEY } from '../../../src/core/duration.ts';
import { MAX_PROBLEMS_SHOWN, ProfileError } from '../../../src/core/profile-error.ts';
import { profileJsonSchema } from '../../../src/profile/json-schema.ts';
import { parseProfile } from '../../../src/profile/load.ts';

type Node = Record<string, unknown>;

/** Every property that is a time in milliseconds (by its name, or a description giving ms as its unit), by path. */
function timeFields(node: unknown, path = ''): Map<string, Node> {
  const found = new Map<string, Node>();
  const visit = (value: unknown, at: string) => {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) visit(v, `${at}[${i}]`);
    } else if (value && typeof value === 'object') {
      const properties = (value as Node).properties as Record<string, Node> | undefined;
      for (const [key, property] of Object.entries(properties ?? {})) {
        const describe = String(property.description ?? '');
        if (MS_KEY.test(key) || /(, |\()ms\b/.test(describe)) found.set(`${at}.${key}`, property);
      }
      for (const [key, child] of Object.entries(value)) visit(child, `${at}/${key}`);
    }
  };
  visit(node, path);
  return found;
}

const takesText = (property: Node) =>
  ((property.anyOf as Node[] | undefined) ?? []).some((o) => o.type === 'string' && o.pattern === DURATION_PATTERN);

describe('durations', () => {
  it('every time field of the profile JSON Schema takes the text form', () => {
    const fields = timeFields(profileJsonSchema());
    // Client, backoff, breaker, targets, steady state, drain, hooks, window start/stop, fault parameters.
    expect(fields.size).toBeGreaterThan(40);
    const plain = [...fields].filter(([, p]) => !takesText(p)).map(([at]) => at);
    expect(plain).toEqual([]);
  });

  it('the same search finds a time field that takes only a number (negative control)', () => {
    const schema = z.toJSONSchema(z.strictObject({ waitMs: z.number(), pause: z.number().describe('a pause, ms') }));
    const fields = timeFields(schema);
    expect([...fields.keys()]).toEqual(['.waitMs', '.pause']);
    expect([...fields.values()].filter(takesText)).toEqual([]);
  });

  const profile = (extra: string) => `
name: d
description: durations
duration: 3s
client: { attemptTimeoutMs: 1.5s, backoff: { initialMs: 50ms, maxMs: 1s } }
workload:
  rate: 5
  mix:
    - tool: search_documents
      args: { query: q }
faults:
${extra}`;

  it('reads "600ms", "1.5s" and "1m" wherever a time is a parameter', () => {
    const { profile: p } = parseProfile(
      'p.yaml',
      profile(`  - { seam: network, kind: latency, start: 1s, latency: 600ms, jitter: 0.05s }
  - { seam: dependency, kind: latency, start: 500ms, ms: 1s }
  - { seam: edge, kind: stream-abandon, start: 1s, afterMs: 250ms }
`),
    );
    expect(p.client).toMatchObject({ attemptTimeoutMs: 1500, backoff: { initialMs: 50, maxMs: 1000 } });
    expect(p.faults.map((f) => [f.start, f.latency ?? f.ms ?? f.afterMs])).toEqual([
      [1000, 600],
      [500, 1000],
      [1000, 250],
    ]);
    expect(p.faults[0].jitter).toBe(50);
  });

  it('refuses a text that is not a duration with the hint, and a time field keeps its own bounds', () => {
    const error = (text: string) => {
      try {
        parseProfile('p.yaml', text);
      } catch (e) {
        if (e instanceof ProfileError) return e.message;
        throw e;
      }
      throw new Error('accepted');
    };
    expect(error(profile('  - { seam: network, kind: latency, start: 1s, latency: 600 ms }\n'))).toBe(
      'p.yaml:12:57: faults[0].latency: expected a duration such as 500, "500ms", "2s" or "1m"; found the text "600 ms"',
    );
    // maxAttempts is a count, and slicer's delay is in microseconds: neither takes the text.
    expect(error(profile('  - { seam: network, kind: slicer, start: 1s, average_size: 10, delay: 5ms }\n'))).toMatch(
      /faults\[0\]\.delay: expected a number, found the text "5ms"$/,
    );
    // The backoff's cap is positive whichever form it is written in.
    expect(error(profile('  []\n').replace('maxMs: 1s', 'maxMs: 0s'))).toBe(
      'p.yaml:5:70: client.backoff.maxMs: expected a number above 0, found the text "0s"',
    );
  });

  it(`lists at most ${MAX_PROBLEMS_SHOWN} problems, then counts the rest`, () => {
    const keys = Array.from({ length: 25 }, (_, i) => `extra${i}: 1`).join('\n');
    try {
      parseProfile('p.yaml', `${profile('  []\n').replace('faults:\n  []\n', '')}${keys}\n`);
      throw new Error('accepted');
    } catch (e) {
      if (!(e instanceof ProfileError)) throw e;
      expect(e.problems).toHaveLength(25);
      const lines = e.message.split('\n');
      expect(lines).toHaveLength(MAX_PROBLEMS_SHOWN + 1);
      expect(lines[0]).toMatch(/^p\.yaml:11:1: extra0: unknown key "extra0"$/);
      expect(lines.at(-1)).toBe('p.yaml: and 5 more problems');
    }
  });
});
