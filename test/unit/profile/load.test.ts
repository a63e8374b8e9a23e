import { describe, expect, it, vi } from 'vitest';
import { ProfileError } from '../../../src/core/profile-error.ts';
import { parseProfile } from '../../../src/profile/load.ts';

const VALID = `
name: ok
description: a valid profile
duration: 2s
workload:
  rate: 5
  mix:
    - tool: create_payment
      args: { customer_id: c, amount_cents: 100, currency: USD }
faults:
  - seam: dependency
    kind: status
    dependency: payments
    status: 503
    start: 500ms
    stop: 1s
expect:
  - duplicate_effects == 0
`;

function errorOf(text: string): ProfileError {
  try {
    parseProfile('p.yaml', text);
  } catch (error) {
    if (error instanceof ProfileError) return error;
    throw error;
  }
  throw new Error('expected a ProfileError');
}

describe('profile loading', () => {
  it('accepts a valid profile and applies defaults', () => {
    const { profile } = parseProfile('p.yaml', VALID);
    expect(profile.duration).toBe(2000);
    expect(profile.faults[0].start).toBe(500);
    expect(profile.client.policy).toBe('resilient');
    expect(profile.target).toMatchObject({ kind: 'reference', eventStore: true });
  });

  it('accepts a profile without a description (it is for people, and optional)', () => {
    const { profile } = parseProfile('p.yaml', VALID.replace('description: a valid profile\n', ''));
    expect(profile.name).toBe('ok');
    expect(profile.description).toBeUndefined();
  });

  it('reports bad YAML with file and line', () => {
    const e = errorOf('name: x\n  bad: [unclosed\n');
    expect(e.message).toMatch(/^p\.yaml:\d+:\d+: \(document\): invalid YAML/);
  });

  it('reports a wrong type with the path inside the document', () => {
    const e = errorOf(VALID.replace('rate: 5', 'rate: fast'));
    expect(e.path).toBe('workload.rate');
    expect(e.message).toMatch(/^p\.yaml:\d+:\d+: workload\.rate: .*number/);
  });

  it('reports an unknown fault kind and lists the known ones', () => {
    const e = errorOf(VALID.replace('kind: status', 'kind: explode'));
    expect(e.path).toBe('faults[0].kind');
    expect(e.message).toContain('unknown dependency fault kind "explode"');
    expect(e.message).toContain('commit-then-delay');
  });

  it('reports a bad fault parameter at its path', () => {
    const e = errorOf(VALID.replace('status: 503', 'status: 200'));
    expect(e.path).toBe('faults[0].status');
  });

  it('reports an unknown fault parameter at the fault, naming the key', () => {
    const e = errorOf(VALID.replace('status: 503', 'status: 503\n    statusCode: 503'));
    expect(e.path).toBe('faults[0].statusCode');
    expect(e.message).toMatch(/^p\.yaml:\d+:\d+: faults\[0\]\.statusCode: unknown key "statusCode"$/);
    // A parameter of another kind is unknown here too.
    expect(errorOf(VALID.replace('status: 503', 'status: 503\n    ms: 100')).message).toContain('unknown key "ms"');
  });

  it('reports an unknown seam', () => {
    const e = errorOf(VALID.replace('seam: dependency', 'seam: disk'));
    expect(e.path).toBe('faults[0].seam');
    expect(e.message).toContain('expected a seam: one of network, edge, dependency, server');
  });

  it('keeps the parsed fault parameters, defaults applied', () => {
    const { profile } = parseProfile(
      'p.yaml',
      VALID.replace('kind: status\n    dependency: payments\n    status: 503', 'kind: commit-then-fail'),
    );
    expect(profile.faults[0]).toEqual({
      seam: 'dependency',
      kind: 'commit-then-fail',
      dependency: '*',
      status: 502,
      start: 500,
      stop: 1000,
      mayNotHit: false,
    });
  });

  it('refuses a fault the target cannot take, from what the kind declares it needs', () => {
    const stdioFault = VALID.replace(
      'seam: dependency\n    kind: status\n    dependency: payments\n    status: 503',
      'seam: edge\n    kind: stdio-slow-writes',
    );
    const e = errorOf(stdioFault);
    expect(e.path).toBe('faults[0].kind');
    expect(e.message).toContain(
      'fault kind stdio-slow-writes needs a stdio target (kind reference-stdio or stdio); target kind reference cannot take it',
    );
    expect(() => parseProfile('p.yaml', `${stdioFault}\ntarget: { kind: reference-stdio }\n`)).not.toThrow();
  });

  it('reports an unknown tool', () => {
    const e = errorOf(VALID.replace('tool: create_payment', 'tool: create_paymnet'));
    expect(e.path).toBe('workload.mix[0].tool');
    expect(e.message).toContain('unknown tool "create_paymnet"');
  });

  it('reports an unknown key', () => {
    const e = errorOf(`${VALID}\nretries: 3\n`);
    expect(e.message).toContain('unknown key "retries"');
  });

  it('reports a bad threshold', () => {
    const e = errorOf(VALID.replace('duplicate_effects == 0', 'duplicates are zero'));
    expect(e.path).toBe('expect[0]');
  });

  it('reports a window that stops before it starts', () => {
    const e = errorOf(VALID.replace('stop: 1s', 'stop: 100ms'));
    expect(e.path).toBe('faults[0].stop');
  });

  it('warns when the timeout layering is broken', () => {
    const { warnings } = parseProfile('p.yaml', `${VALID}\nclient: { attemptTimeoutMs: 500 }\n`);
    expect(warnings.join('\n')).toMatch(/timeout layering/);
  });

  it('refuses a deadline shorter than one attempt (no attempt could use its timeout, no retry could happen)', () => {
    const e = errorOf(`${VALID}\nclient: { attemptTimeoutMs: 3000, deadlineMs: 2999 }\n`);
    expect(e.message).toBe(
      "p.yaml:20:47: client.deadlineMs: expected at least one attempt's time (client.attemptTimeoutMs 3000), found 2999",
    );
    expect(() =>
      parseProfile('p.yaml', `${VALID}\nclient: { attemptTimeoutMs: 3000, deadlineMs: 3000 }\n`),
    ).not.toThrow();
  });

  it('caps the name, which becomes part of file names', () => {
    expect(parseProfile('p.yaml', VALID.replace('name: ok', `name: ${'a'.repeat(100)}`)).profile.name).toHaveLength(
      100,
    );
    const e = errorOf(VALID.replace('name: ok', `name: ${'a'.repeat(101)}`));
    expect(e.message).toMatch(/^p\.yaml:2:7: name: expected a name of at most 100 characters; found the text "a+…"$/);
  });
});

describe('hostile YAML is a ProfileError, never another exception', () => {
  const laughs = [
    'a: &a [x, x, x, x, x, x, x, x, x]',
    'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]',
    'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]',
    'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]',
    'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]',
    'f: [*e, *e, *e, *e, *e, *e, *e, *e, *e]',
  ].join('\n');

  it('refuses an alias bomb (billion laughs) before expanding it', () => {
    const started = performance.now();
    const e = errorOf(`${laughs}\n${VALID}`);
    expect(e.message).toMatch(/^p\.yaml: \(document\): aliases expand too much/);
    expect(performance.now() - started).toBeLessThan(5000); // generous: a full expansion would not end at all
  });

  it('names an undefined alias and its line', () => {
    const e = errorOf(VALID.replace('status: 503', 'status: *nope'));
    expect(e.message).toBe('p.yaml:14:13: (document): alias "*nope" has no anchor before it');
  });

  it('refuses an alias to the collection that contains it', () => {
    const e = errorOf(VALID.replace('args: {', 'args: &loop { self: *loop,'));
    expect(e.message).toMatch(/alias refers to a collection that contains it/);
  });

  it('refuses nesting deeper than the limit without recursing into it', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const e = errorOf(VALID.replace('currency: USD', `currency: ${deep}`));
    expect(e.message).toMatch(/^p\.yaml:9:\d+: \(document\): nested deeper than 64 levels$/);
    const blocks = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k:`).join('\n');
    expect(errorOf(`${blocks} 1\n`).message).toMatch(/nested deeper than 64 levels/);
  });

  it('refuses unknown tags rather than reading them as strings', () => {
    const e = errorOf(VALID.replace('status: 503', 'status: !bogus 503'));
    expect(e.message).toBe('p.yaml:14:13: (document): invalid YAML: Unresolved tag: "!bogus"');
  });

  it('refuses a file over the size limit', () => {
    const e = errorOf(`${VALID}\n#${'x'.repeat(300_000)}\n`);
    expect(e.message).toMatch(/^p\.yaml: \(file\): \d+ bytes; expected a profile of at most 262144 bytes$/);
  });

  it('refuses a raw NUL byte in a scalar, naming its line', () => {
    const e = errorOf(VALID.replace('customer_id: c', 'customer_id: "c\u0000d"'));
    expect(e.message).toBe(
      'p.yaml:9: (document): invalid YAML: raw control character U+0000; write it as an escape in a double-quoted string',
    );
    // The escape YAML defines for it is not a raw byte.
    expect(
      parseProfile('p.yaml', VALID.replace('customer_id: c', 'customer_id: "c\\0d"')).profile.workload.mix[0].args,
    ).toMatchObject({ customer_id: 'c\u0000d' });
  });

  it('refuses a collection used as a key without a Node warning', () => {
    // The yaml library stringifies such a key with process.emitWarning, which would print on stderr.
    const emitWarning = vi.spyOn(process, 'emitWarning');
    try {
      for (const key of ['? [a, b]\n: 1', '[a, b]: 1', '{a: 1}: 2', 'k: &k [a]\n? *k\n: 1']) {
        const e = errorOf(`${key}\n${VALID}`);
        expect(e.message).toMatch(
          /^p\.yaml:\d:\d+: \(document\): expected a plain key, not a sequence or mapping used as a key$/,
        );
      }
      expect(emitWarning).not.toHaveBeenCalled();
    } finally {
      emitWarning.mockRestore();
    }
  });

  it('supports `<<` merge keys (an anchored block reused with one field changed)', () => {
    const text = VALID.replace(
      '    - tool: create_payment\n      args: { customer_id: c, amount_cents: 100, currency: USD }',
      [
        '    - tool: create_payment',
        '      args: &pay { customer_id: c, amount_cents: 100, currency: USD }',
        '    - tool: create_payment',
        '      args:',
        '        <<: *pay',
        '        currency: EUR',
      ].join('\n'),
    );
    const { profile } = parseProfile('p.yaml', text);
    expect(profile.workload.mix[1].args).toEqual({ customer_id: 'c', amount_cents: 100, currency: 'EUR' });
  });

  it('says what a merge key needs when given something else', () => {
    const e = errorOf(VALID.replace('duration: 2s', 'duration: 2s\nclient:\n  <<: 3'));
    expect(e.message).toBe('p.yaml:6:3: (document): expected a mapping or an alias of one after "<<:"');
  });
});

describe('values a run cannot honour are refused with the allowed range', () => {
  it.each([
    ['a huge number', 'duration: 1e308'],
    ['a huge string', 'duration: 99999999m'],
    ['a string that overflows to infinity', `duration: ${'9'.repeat(400)}ms`],
  ])('a duration over 24 h: %s', (_, line) => {
    const e = errorOf(VALID.replace('duration: 2s', line));
    expect(e.message).toMatch(/^p\.yaml:4:11: duration: expected a duration of at most 24 h \(86400000 ms\); found /);
  });

  it('a zero duration', () => {
    expect(errorOf(VALID.replace('duration: 2s', 'duration: 0s')).message).toBe(
      'p.yaml:4:11: duration: expected a duration above 0; found the text "0s"',
    );
  });

  it('an inverted int range', () => {
    const e = errorOf(VALID.replace('amount_cents: 100', 'amount_cents: { int: [50000, 100] }'));
    expect(e.path).toBe('workload.mix[0].args.amount_cents.int');
    expect(e.message).toContain('expected [min, max] with min <= max, got [50000, 100]');
  });

  it('a rate that comes to less than one op, saying how many', () => {
    const e = errorOf(VALID.replace('rate: 5', 'rate: 0.001'));
    expect(e.message).toBe(
      'p.yaml:6:9: workload.rate: 0.001 ops/s over 2000 ms comes to 0.002 ops; expected at least 1 (raise the rate or the duration)',
    );
    expect(parseProfile('p.yaml', VALID.replace('rate: 5', 'rate: 0.5')).profile.workload.rate).toBe(0.5);
  });

  it('a wait the timers would turn into 1 ms (1e15 ms), wherever it is', () => {
    const timeout = errorOf(`${VALID}\ntarget: { kind: reference, dependencyTimeoutMs: 1000000000000000 }\n`);
    expect(timeout.message).toMatch(/target\.dependencyTimeoutMs: 1000000000000000 ms is longer than 24 h/);
    const latency = errorOf(
      VALID.replace('kind: status\n    dependency: payments\n    status: 503', 'kind: latency\n    ms: 1e15'),
    );
    expect(latency.message).toMatch(
      /^p\.yaml:13:\d+: faults\[0\]\.ms: 1000000000000000 ms is longer than 24 h; expected at most 86400000 ms$/,
    );
    const toxic = errorOf(
      VALID.replace(
        /faults:[\s\S]*?expect:/,
        'faults:\n  - { seam: network, kind: latency, latency: 1e15, start: 0 }\nexpect:',
      ),
    );
    expect(toxic.path).toBe('faults[0].latency');
    const retryAfter = errorOf(
      VALID.replace(
        /faults:[\s\S]*?expect:/,
        'faults:\n  - { seam: edge, kind: status, status: 429, retryAfterS: 1e9, start: 0 }\nexpect:',
      ),
    );
    expect(retryAfter.message).toMatch(
      /faults\[0\]\.retryAfterS: 1000000000 s is longer than 24 h; expected at most 86400 s/,
    );
  });

  it('a fault stop after the workload ends (the timeline would cut it silently)', () => {
    const e = errorOf(VALID.replace('stop: 1s', 'stop: 5s'));
    expect(e.path).toBe('faults[0].stop');
    expect(e.message).toContain('5000 ms is after the workload ends (duration 2000 ms)');
    expect(parseProfile('p.yaml', VALID.replace('stop: 1s', 'stop: 2s')).profile.faults[0].stop).toBe(2000);
  });

  it('a backoff whose first wait exceeds its cap', () => {
    const e = errorOf(`${VALID}\nclient: { backoff: { initialMs: 5000, maxMs: 100 } }\n`);
    expect(e.path).toBe('client.backoff.initialMs');
    expect(e.message).toContain('expected initialMs <= maxMs');
  });

  it.each([
    ['retry_success_rate >= 2', 'retry_success_rate takes values from 0 to 1'],
    ['error_rate > -0.5', 'error_rate takes values from 0 to 1'],
    ['self_correction_rate >= 1.5', 'self_correction_rate takes values from 0 to 1'],
    ['ops_fail < -1', 'ops_fail takes values 0 or more'],
  ])('an impossible threshold: %s', (expr, message) => {
    const e = errorOf(VALID.replace('duplicate_effects == 0', expr));
    expect(e.path).toBe('expect[0]');
    expect(e.message).toContain(message);
  });

  it('thresholds at the ends of a range are fine', () => {
    const text = VALID.replace('duplicate_effects == 0', 'error_rate <= 1\n  - retry_success_rate >= 0');
    expect(parseProfile('p.yaml', text).profile.expect).toHaveLength(2);
  });

  it('an inherited property is no tool and no metric', () => {
    expect(errorOf(VALID.replace('tool: create_payment', 'tool: constructor')).message).toContain(
      'unknown tool "constructor"',
    );
    expect(errorOf(VALID.replace('duplicate_effects == 0', 'constructor == 0')).message).toContain(
      'unknown metric "constructor"',
    );
  });
});

describe('workload arguments against the reference tool schemas', () => {
  it('refuses an argument the tool does not take', () => {
    const e = errorOf(VALID.replace('currency: USD', 'currency: USD, colour: red'));
    expect(e.path).toBe('workload.mix[0].args.colour');
    expect(e.message).toContain('create_payment takes no argument of this name; expected: customer_id,');
  });

  it('refuses a fixed value the tool would reject, in a literal, a pick or an int range', () => {
    expect(errorOf(VALID.replace('currency: USD', 'currency: usd')).message).toContain(
      'workload.mix[0].args.currency: not a valid currency for create_payment: must be an ISO 4217 code',
    );
    expect(errorOf(VALID.replace('currency: USD', 'currency: { pick: [USD, euro] }')).path).toBe(
      'workload.mix[0].args.currency.pick[1]',
    );
    expect(errorOf(VALID.replace('amount_cents: 100', 'amount_cents: { int: [-5, 100] }')).path).toBe(
      'workload.mix[0].args.amount_cents.int[0]',
    );
  });

  it('refuses a missing required argument, but not the idempotency key the client adds', () => {
    const e = errorOf(VALID.replace(', currency: USD', ''));
    expect(e.message).toBe('p.yaml:9:13: workload.mix[0].args: create_payment needs currency');
  });

  it('leaves generated values and {op} placeholders to the run', () => {
    const text = VALID.replace(
      'args: { customer_id: c, amount_cents: 100, currency: USD }',
      'args:\n        customer_id: cus_{op}\n        amount_cents: { int: [1, 100] }\n        currency: USD',
    );
    expect(parseProfile('p.yaml', text).profile.workload.mix[0].args.customer_id).toBe('cus_{op}');
  });

  it('does not check a url target, whose schemas are only known once connected', () => {
    const text = `${VALID.replace('currency: USD', 'currency: usd').replace(/faults:[\s\S]*?expect:/, 'expect:')}\ntarget: { kind: url, url: "http://127.0.0.1:1/mcp" }\n`;
    expect(parseProfile('p.yaml', text).profile.workload.mix[0].args.currency).toBe('usd');
  });
});

describe('error lines quote at most a short excerpt', () => {
  const long = 'z'.repeat(500);
  it.each([
    ['an unknown key', `${VALID}\n${long}: 1\n`],
    ['an argument name', VALID.replace('currency: USD', `${long}: 1`)],
    ['a tool name', VALID.replace('tool: create_payment', `tool: ${long}`)],
    ['a fault kind', VALID.replace('kind: status', `kind: ${long}`)],
    ['a threshold', VALID.replace('duplicate_effects == 0', `${long} == 0`)],
    ['a threshold number', VALID.replace('duplicate_effects == 0', `ops == ${long}`)],
    ['a tag', VALID.replace('status: 503', `status: !${long} 503`)],
    ['an alias', VALID.replace('status: 503', `status: *${long}`)],
  ])('%s', (_, text) => {
    const e = errorOf(text);
    expect(e.message).not.toContain('z'.repeat(41));
    expect(e.message).toContain(`${'z'.repeat(20)}`);
    expect(e.message).toContain('…');
    // One line per problem: the input never breaks a line.
    expect(e.message.split('\n')).toHaveLength(e.problems.length);
  });

  it('a key with a line break stays on one line', () => {
    const e = errorOf(`${VALID}\n"two\\nlines": 1\n`);
    expect(e.message).toContain('unknown key "two\\nlines"');
    expect(e.message).not.toMatch(/\n/);
  });
});
