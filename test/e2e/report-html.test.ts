// report.html in a real browser (Debian's headless Chromium): the charts are drawn at desktop and phone width,
// nothing is wider than a phone, and the screenshots are pictures, not blank pages. The report itself has no
// script: a test-only wrapper page shows it in an iframe of the exact width (headless Chromium lays a window out
// at least 500 px wide) and its script writes what it measured in the iframe into the wrapper's DOM.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseHistories } from '../../src/report/history-file.ts';
import { runCli } from '../helpers/cli.ts';
import { keptTmpdir } from '../helpers/run-tmpdir.ts';
import { failingProfile } from './report-run.ts';

const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Screenshots stay here for a person to look at (one folder, overwritten each run; outside the run's own). */
const SHOTS = join(keptTmpdir(), 'faultline-shots');
const WIDTHS = { desktop: 1280, phone: 390 } as const;
const HEIGHT = 2400;

async function chromium(args: string[]): Promise<string> {
  const profileDir = mkdtempSync(join(tmpdir(), 'faultline-chromium-'));
  try {
    const { stdout } = await run(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--hide-scrollbars',
        `--user-data-dir=${profileDir}`,
        ...args,
      ],
      { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
    );
    return stdout;
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
}

/** What the measuring script found after load. */
interface Measured {
  viewport: number;
  scrollWidth: number;
  charts: Array<{ cls: string; width: number; height: number; shapes: number }>;
  dots: number;
  wider: string[];
}

const MEASURE = `<script>
const frame = document.getElementById('report');
const measure = () => {
  const doc = frame.contentDocument;
  const root = doc.documentElement;
  const charts = [...doc.querySelectorAll('svg.chart')].map((svg) => {
    const box = svg.getBoundingClientRect();
    return { cls: svg.getAttribute('class'), width: box.width, height: box.height,
      shapes: svg.querySelectorAll('circle, rect, line').length };
  });
  const wider = [...doc.body.querySelectorAll('*')]
    .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5 && !el.closest('.scroll'))
    .slice(0, 5).map((el) => el.tagName + '.' + el.getAttribute('class'));
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify({ viewport: root.clientWidth, scrollWidth: root.scrollWidth, charts,
    dots: doc.querySelectorAll('svg.timeline circle.op').length, wider });
  document.body.append(out);
};
frame.addEventListener('load', measure);
</script>`;

/** The report in an iframe exactly `width` px wide (srcdoc: same origin as the wrapper, so its script can look in). */
function wrapper(report: string, width: number, script = ''): string {
  const srcdoc = report.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0"><iframe id="report" style="display:block;border:0;width:${width}px;height:${HEIGHT}px" srcdoc="${srcdoc}"></iframe>${script}</body></html>`;
}

function pngSize(file: string): { width: number; height: number; bytes: number } {
  const png = readFileSync(file);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: statSync(file).size };
}

describe('report.html in headless Chromium', () => {
  const { dir, file } = failingProfile();
  const out = join(dir, 'run');
  let html: string;
  let ops: number;
  beforeAll(async () => {
    const result = await runCli(['run', file, 'chaos-profiles/circuit-breaker.yaml', '--out', out], {
      timeoutMs: 110_000,
    });
    expect(result.code, result.stderr).toBe(1);
    html = readFileSync(join(out, 'report.html'), 'utf8');
    const histories = parseHistories(readFileSync(join(out, 'history.jsonl'), 'utf8'), 'history.jsonl');
    ops = Object.values(histories).reduce((n, h) => n + h.ops!.length, 0);
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  it('ships no script and loads nothing from the network', () => {
    expect(html).not.toMatch(/<script|<link|<img|\bsrc=|url\(|@import|href="(https?:)?\/\//i);
  });

  for (const [name, width] of Object.entries(WIDTHS)) {
    it(`draws every chart at ${name} width (${width} px) and nothing overflows the page`, async () => {
      const probe = join(dir, `probe-${name}.html`);
      writeFileSync(probe, wrapper(html, width, MEASURE));
      const dom = await chromium(['--dump-dom', `--window-size=${Math.max(width, 500)},${HEIGHT}`, `file://${probe}`]);
      const json = /<pre id="measured">([^<]*)<\/pre>/.exec(dom)?.[1];
      expect(json, 'the measuring script ran').toBeDefined();
      const m: Measured = JSON.parse(json!.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
      expect(m.viewport).toBe(width);
      expect(m.scrollWidth, `wider than the page: ${m.wider.join(', ')}`).toBeLessThanOrEqual(width);
      expect(m.wider).toEqual([]);
      // Two profiles: a timeline, a latency distribution and retry success per fault kind each.
      expect(m.charts.map((c) => c.cls).sort()).toEqual(
        ['latency', 'latency', 'retry-by-kind', 'retry-by-kind', 'timeline', 'timeline'].map((c) => `chart ${c}`),
      );
      for (const c of m.charts) {
        expect(c.width, c.cls).toBeGreaterThan(width === 390 ? 300 : 400);
        expect(c.width, c.cls).toBeLessThanOrEqual(width);
        expect(c.height, c.cls).toBeGreaterThan(20);
        expect(c.shapes, c.cls).toBeGreaterThan(c.cls === 'chart timeline' ? 20 : 0);
      }
      expect(m.dots).toBe(ops);
    }, 90_000);

    it(`takes a ${name} screenshot that is a picture (${SHOTS})`, async () => {
      const png = join(SHOTS, `report-${name}.png`);
      rmSync(png, { force: true });
      // The window is cut to `width` (laid out at 500 px or more); the iframe at its left edge is `width` wide.
      const page = join(dir, `shot-${name}.html`);
      writeFileSync(page, wrapper(html, width));
      await chromium([`--screenshot=${png}`, `--window-size=${width},${HEIGHT}`, `file://${page}`]);
      const size = pngSize(png);
      expect([size.width, size.height]).toEqual([width, HEIGHT]);
      // A blank or error page compresses to a few kilobytes; charts and tables do not.
      expect(size.bytes).toBeGreaterThan(40_000);
    }, 90_000);
  }
});
