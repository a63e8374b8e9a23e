// A bench's command line, declared with commander as the faultline commands are: an unknown option, a missing value
// or a value the option does not take is one line on stderr and exit 2 before anything is measured (a mistyped
// `--real` must not run ten minutes without the side it asked for), and --help lists the options with their defaults.
// Options a bench passes to its own child processes are declared too, hidden from the help. A reader that closes
// the pipe early (`| head`) ends the bench quietly.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { endQuietlyOnClosedPipe } from '../src/cli/closed-pipe.ts';
import { parseCount, parseLevelList, parsePositive, parseSeed } from '../src/cli/parse.ts';

export { InvalidArgumentError, Option, parseCount, parseLevelList, parsePositive, parseSeed };

/** A whole number that may be 0 (a child's empty run). */
export function parseWhole(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number, 0 or more');
  return Number(value);
}

/** A number of seconds that may be 0 (a warm-up that can be skipped). */
export function parseSeconds(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('expected a number of seconds, 0 or more');
  return Number(value);
}

/** One of `choices`. */
export function parseChoice<T extends string>(choices: readonly T[]): (value: string) => T {
  return (value) => {
    if (!choices.includes(value as T)) throw new InvalidArgumentError(`expected one of ${choices.join(', ')}`);
    return value as T;
  };
}

/** A child-process option: accepted, never shown in --help. */
export function hidden(flags: string, parse?: (value: string) => unknown): Option {
  const option = new Option(flags).hideHelp();
  return parse ? option.argParser(parse) : option;
}

let pipeWatched = false;

/**
 * Parses this process's arguments with the options `declare` adds; exits 0 after --help and 2 on bad input.
 * Returns the options and the positional arguments (a bench that takes none refuses them).
 */
export function benchArgs<T extends object>(
  name: string,
  description: string,
  declare: (command: Command) => Command,
  argv: readonly string[] = process.argv,
): { options: T; args: string[] } {
  // `npm run bench | head` ends the bench quietly, as it ends faultline.
  if (!pipeWatched) endQuietlyOnClosedPipe(process.stdout);
  pipeWatched = true;
  const command = declare(new Command(name).description(description))
    .helpOption('-h, --help', 'show the options')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (text, write) => write(`${name}: ${text.replace(/^error: /, '')}`) })
    .exitOverride();
  try {
    command.parse([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
    throw error;
  }
  return { options: command.opts() as T, args: command.args };
}
