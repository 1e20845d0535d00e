// How the `mcp-kit` process meets its signals, for the CLI and for the warm-session client alike:
// the first Ctrl-C (or SIGTERM) aborts the returned signal so the command can cancel and clean
// up; a second one exits at once. A closed stdout pipe (`mcp-kit cat … | head -1`) ends quietly.

export const interruptedExitCode = 130

export function interruptSignal(): AbortSignal {
  const controller = new AbortController()
  let interrupted = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(interruptedExitCode) // second Ctrl-C: stop waiting
    interrupted = true
    controller.abort(new Error(`interrupted by ${signal}`))
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // A closed pipe is not an error worth a message.
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
  })
  return controller.signal
}
