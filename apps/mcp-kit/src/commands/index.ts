// Every command of the CLI, in the order `--help` lists them.

import * as inspect from './inspect.js'
import * as serve from './serve.js'

export const commands = [inspect, serve]
