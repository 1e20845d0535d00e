// The inspect command's runner. Inspecting a server is shared with `registry launch` and the
// plain `mcp-kit <reference>` of program/run.ts, so it lives in commands/shared/inspect/.

export { type InspectArguments, runInspect } from '../shared/inspect/run-inspect.js'
