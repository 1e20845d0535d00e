// Every command of the CLI, in the order `--help` lists them.

import * as cat from './cat.js'
import * as head from './head.js'
import * as inspect from './inspect.js'
import * as profile from './profile.js'
import * as put from './put.js'
import * as serve from './serve.js'
import * as tail from './tail.js'

export const commands = [inspect, cat, head, tail, put, profile, serve]
