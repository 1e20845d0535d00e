// `mcp-kit completion [shell]` — print the completion script for bash, zsh or fish.

import type { Argv } from 'yargs'
import type { CommandContext } from '../../base/command-context.js'
import { write } from '../../base/io.js'
import { completionScripts, type Shell, shellOf, shells } from './scripts.js'

export const command = 'completion [shell]'
export const describe =
  'Print a shell completion script (bash, zsh, fish): commands, flags, profiles, and the tools and parameters profiles saved'

export function builder(yargs: Argv) {
  return yargs
    .positional('shell', {
      choices: shells,
      describe: 'The shell (default: the one in $SHELL)',
    })
    .example('source <($0 completion bash)', 'in ~/.bashrc')
    .example('$0 completion zsh > "${fpath[1]}/_mcp-kit"', '')
    .example('$0 completion fish > ~/.config/fish/completions/mcp-kit.fish', '')
}

export async function handler(argv: { shell?: Shell } & CommandContext): Promise<void> {
  await write(argv.io.stdout, completionScripts[argv.shell ?? shellOf(argv.io.env)])
}
