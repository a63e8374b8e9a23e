// The shipped profiles as a Markdown table for the README: name, seams, fault kinds, and the first sentence of
// the description. A test keeps the README equal to this, so the catalogue cannot drift from the files.
import { loadProfile } from './load.ts';

export function profileCatalogue(files: string[]): string {
  const rows = files.map((file) => {
    const { profile } = loadProfile(file);
    const seams = [...new Set(profile.faults.map((f) => f.seam))].join(', ') || '(none)';
    const kinds = [...new Set(profile.faults.map((f) => f.kind))].map((k) => `\`${k}\``).join(', ') || '-';
    const first = (profile.description ?? '')
      .trim()
      .split(/(?<=\.)\s/)[0]
      .replace(/\s+/g, ' ')
      .replace(/\|/g, '\\|');
    return `| \`${profile.name}\` | ${seams} | ${kinds} | ${first} |`;
  });
  return ['| profile | seams | faults | what happens |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
