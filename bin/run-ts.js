#!/usr/bin/env node
import { resolve } from 'node:path';
// Runs one TypeScript file (a bench script, a child process entry) through tsx.
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const [file, ...rest] = process.argv.slice(2);
process.argv = [process.argv[0], resolve(file), ...rest];
await import(pathToFileURL(resolve(file)).href);
