// (b) The same key with other arguments: refused as a conflict (an error result or a JSON-RPC error), no new effect.
import { describe, effectsOf, type IdempotencyCheck, keyedWriteMissing, withKey } from './tool-under-test.ts';

export const conflict: IdempotencyCheck = {
  name: 'same-key-other-args',
  title: 'same key, other arguments: refused as a conflict',
  async run(tool) {
    const missing = keyedWriteMissing(tool);
    if (missing) return missing;
    const key = tool.freshKey();
    const first = withKey(tool, tool.args(2), key);
    // The first later variant whose arguments differ (a pick may draw the same value again).
    const other = [3, 4, 5, 6, 7, 8]
      .map((v) => withKey(tool, tool.args(v), key))
      .find((args) => JSON.stringify(args) !== JSON.stringify(first));
    if (other === undefined)
      return { verdict: 'n/a', evidence: "the profile's arguments are the same for every op: nothing to vary" };
    let second = '';
    const effects = await effectsOf(tool, async () => {
      await tool.call(first);
      second = describe(await tool.call(other));
    });
    if (typeof effects === 'string') return { verdict: 'n/a', evidence: effects };
    const refused = /^error/.test(second);
    const evidence = `second call: ${second}; ${effects} effect(s)`;
    return { verdict: refused && effects === 1 ? 'pass' : 'fail', evidence };
  },
};
