// What a command's handler gets from yargs for an argument vector: the reference the plain
// (yargs-free) parsers of inspect, serve and ui are held to.

import yargs from 'yargs'

/** A command module as yargs takes it (commands/<name>/command.ts). */
export interface CommandModule {
  command: string | readonly string[]
  describe: string | false
  builder: unknown
}

export async function parsedByYargs(module: CommandModule, argv: string[]): Promise<Record<string, unknown>> {
  let parsed: Record<string, unknown> = {}
  await yargs(argv)
    .command({
      command: module.command as string,
      describe: module.describe,
      builder: module.builder as never,
      handler: (args: Record<string, unknown>) => {
        parsed = args
      },
    })
    .strict()
    .exitProcess(false)
    .parseAsync()
  return parsed
}
