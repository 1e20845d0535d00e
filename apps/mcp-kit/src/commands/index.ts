// Every command of the CLI, in the order `--help` lists them. Each folder holds one command's
// flags (the yargs module), its run function and its rendering; heavy code loads in the handler.

import * as auth from './auth/command.js'
import * as cat from './call/cat.js'
import * as head from './call/head.js'
import * as tail from './call/tail.js'
import * as inspect from './inspect/command.js'
import * as profile from './profile/command.js'
import * as put from './put/command.js'
import * as serve from './serve/command.js'
import * as sessions from './sessions/command.js'
import * as watch from './watch/command.js'

export const commands = [inspect, cat, head, tail, put, watch, profile, auth, serve, sessions]
