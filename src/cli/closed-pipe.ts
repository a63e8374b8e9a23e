// `faultline run --help | head -3`: the reader closes the pipe early, and the next write fails with EPIPE. That is
// the reader's choice, not a fault of ours, so the process ends quietly (as a shell tool does) instead of with an
// unhandled 'error' event and its stack trace.
export function endQuietlyOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}
