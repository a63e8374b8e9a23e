// Writes schema/report.schema.json from the zod schema of report.json (run: node bin/run-ts.js scripts/report-schema.ts).
import { writeFileSync } from 'node:fs';
import { reportJsonSchema } from '../src/report/report-schema.ts';

writeFileSync('schema/report.schema.json', `${JSON.stringify(reportJsonSchema(), null, 2)}\n`);
