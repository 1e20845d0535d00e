// The process entry of a command that runs in this process (bin.ts has decided it does not run
// warm, warm/route.ts): the shell completion scripts' requests are answered here, every other
// command line goes to the program (program/run.ts).

import { exitCodes } from '../base/exit-codes.js'
import type { Io } from '../base/io.js'
import { write } from '../base/io.js'
import { program, run, runProgram, splitServerCommand } from '../program/run.js'

const completionKey = '--get-yargs-completions'

/** Runs `argv` (without node and script) in this process and returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  if (argv[0] !== completionKey) return run(argv, io)
  // The completion scripts' entry point. References, profiles, tools and parameters are ours;
  // commands, flags and choices are yargs' (not strict: a half-typed line is no usage error).
  const [{ shellOf }, { completeWords, yargsCompleter }] = await Promise.all([
    import('../commands/completion/scripts.js'),
    import('./complete.js'),
  ])
  const ours = await completeWords(argv.slice(1), io, shellOf(io.env))
  if (Array.isArray(ours)) {
    await write(io.stdout, ours.map((line) => `${line}\n`).join(''))
    return exitCodes.ok
  }
  const { own, serverCommand } = splitServerCommand(argv)
  const parser = (await program(own, serverCommand))
    .strict(false)
    .completion('__complete', false, yargsCompleter(ours.flagValue))
  return runProgram(parser, own, serverCommand, io)
}
