// A strict reader of the Prometheus text exposition format (version 0.0.4) for tests: every line must be a
// HELP, TYPE, comment, blank line or sample with valid names, escaped label values and a float value; each
// family is declared once before its samples; no series repeats. Throws on the first violation.
interface Sample {
  labels: Record<string, string>;
  value: number;
}
export interface Family {
  type?: string;
  help?: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*';
const VALUE = String.raw`"((?:[^"\\\n]|\\[\\"n])*)"`;
const FLOAT = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN`;
const HELP = new RegExp(String.raw`^# HELP (${NAME}) ((?:[^\\\n]|\\[\\n])*)$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE = new RegExp(
  String.raw`^(${NAME})(?:\{((?:${LABEL}=${VALUE})(?:,${LABEL}=${VALUE})*)?,?\})? (${FLOAT})(?: -?\d+)?$`,
);
const PAIR = new RegExp(`(${LABEL})=${VALUE}`, 'g');

const unescapeLabel = (s: string) => s.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));

export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const series = new Set<string>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) {
      f = { samples: [] };
      families.set(name, f);
    }
    return f;
  };
  text.split('\n').forEach((line, i) => {
    const where = `line ${i + 1}: ${line}`;
    if (line === '') return;
    const help = HELP.exec(line);
    const type = TYPE.exec(line);
    if (help) {
      if (family(help[1]).help !== undefined) throw new Error(`second HELP, ${where}`);
      family(help[1]).help = unescapeLabel(help[2]);
    } else if (type) {
      const f = family(type[1]);
      if (f.type !== undefined || f.samples.length > 0) throw new Error(`TYPE repeated or after samples, ${where}`);
      f.type = type[2];
    } else if (line.startsWith('#')) {
      if (/^# (HELP|TYPE) /.test(line)) throw new Error(`malformed ${line.slice(2, 6)}, ${where}`);
    } else {
      const m = SAMPLE.exec(line);
      if (!m) throw new Error(`not a sample, ${where}`);
      const labels: Record<string, string> = {};
      for (const [, k, v] of (m[2] ?? '').matchAll(PAIR)) {
        if (k in labels) throw new Error(`label ${k} twice, ${where}`);
        labels[k] = unescapeLabel(v);
      }
      const f = families.get(m[1]);
      if (!f?.type) throw new Error(`sample before its TYPE, ${where}`);
      const key = `${m[1]}${JSON.stringify(Object.entries(labels).sort())}`;
      if (series.has(key)) throw new Error(`series repeated, ${where}`);
      series.add(key);
      f.samples.push({ labels, value: Number(m[m.length - 1].replace(/Inf$/, 'Infinity')) });
    }
  });
  return families;
}
