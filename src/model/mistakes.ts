// Model-side mistakes, planned for a seeded share of ops (plan/schedule.ts): the call the "model" first makes
// is wrong in one of the ways models get tool calls wrong. Each kind falls back to another when the tool's
// arguments offer no place for it (search_documents has no number to mistype, for instance).
import type { RandomStream } from '../core/random.ts';
import type { MISTAKE_KINDS } from '../profile/schema.ts';

export type MistakeKind = (typeof MISTAKE_KINDS)[number];

export interface Mistaken {
  kind: MistakeKind;
  tool: string;
  args: Record<string, unknown>;
}

const numericKey = (args: Record<string, unknown>) => Object.keys(args).find((k) => typeof args[k] === 'number');
const stringKey = (args: Record<string, unknown>) => Object.keys(args).find((k) => typeof args[k] === 'string');
const snakeKey = (args: Record<string, unknown>) => Object.keys(args).find((k) => k.includes('_'));
// Values that follow a format a model can get wrong in case or shape (currency codes, enum words).
const formatKey = (args: Record<string, unknown>) =>
  Object.keys(args).find((k) => k === 'currency' || k === 'report_type' || k === 'channel');

function apply(kind: MistakeKind, tool: string, args: Record<string, unknown>): Mistaken | undefined {
  const out = { ...args };
  switch (kind) {
    case 'unknown-tool':
      // camelCase instead of snake_case: a name the model "remembers" from another API.
      return { kind, tool: tool.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), args };
    case 'wrong-type': {
      // A number as a string, or a string wrapped in a list.
      const key = numericKey(args);
      const text = stringKey(args);
      if (key) out[key] = String(args[key]);
      else if (text) out[text] = [args[text]];
      else return undefined;
      return { kind, tool, args: out };
    }
    case 'flattened': {
      // A nested shape flattened into a dotted key (amount_cents -> "amount.cents").
      const key = snakeKey(args);
      if (!key) return undefined;
      delete out[key];
      out[key.replace('_', '.')] = args[key];
      return { kind, tool, args: out };
    }
    case 'out-of-range': {
      const key = numericKey(args);
      if (key) out[key] = -Math.abs(args[key] as number);
      else if (tool === 'search_documents') out.page_size = 500;
      else return undefined;
      return { kind, tool, args: out };
    }
    case 'wrong-format': {
      const key = formatKey(args);
      if (!key || typeof args[key] !== 'string') return undefined;
      out[key] =
        (args[key] as string).toLowerCase() === args[key]
          ? (args[key] as string).toUpperCase()
          : (args[key] as string).toLowerCase();
      return { kind, tool, args: out };
    }
    case 'garbled': {
      // A hallucinated value nothing in the error can repair: the corrector can only repeat itself.
      const key = numericKey(args);
      const text = stringKey(args);
      if (key) out[key] = 'a lot';
      else if (text) out[text] = '';
      else return undefined;
      return { kind, tool, args: out };
    }
  }
}

export function injectMistake(
  tool: string,
  args: Record<string, unknown>,
  kinds: readonly MistakeKind[],
  random: RandomStream,
): Mistaken | undefined {
  const first = random.pick('mistake.kind', kinds);
  // Try the drawn kind, then the others in order, so the share of mistaken ops stays what the profile asked.
  for (const kind of [first, ...kinds.filter((k) => k !== first)]) {
    const m = apply(kind, tool, args);
    if (m) return m;
  }
  return undefined;
}
