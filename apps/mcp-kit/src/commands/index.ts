// Every command of the CLI, in the order `--help` lists them. Each folder holds one command's
// flags (the yargs module), its run function and its rendering; heavy code loads in the handler.

import * as auth from './auth/command.js'
import * as cat from './call/cat.js'
import * as head from './call/head.js'
import * as tail from './call/tail.js'
import * as completion from './completion/command.js'
import * as generate from './generate/command.js'
import * as inspect from './inspect/command.js'
import * as profile from './profile/command.js'
import * as put from './put/command.js'
import * as record from './record/command.js'
import * as registry from './registry/command.js'
import * as serve from './serve/command.js'
import * as sessions from './sessions/command.js'
import * as shell from './shell/command.js'
import * as task from './task/command.js'
import * as test from './test/command.js'
import * as ui from './ui/command.js'
import * as watch from './watch/command.js'

export const commands = [
  inspect,
  cat,
  head,
  tail,
  put,
  task,
  watch,
  shell,
  ui,
  profile,
  generate,
  test,
  record,
  registry,
  auth,
  serve,
  sessions,
  completion,
]

/** The commands that take a stdio server as a command line after `--` (`mcp-kit inspect -- node s.js`). */
export const commandLineCommands = [
  'inspect',
  'cat',
  'head',
  'tail',
  'put',
  'watch',
  'ui',
  'generate',
  'profile create',
  'profile version',
  'record',
]
