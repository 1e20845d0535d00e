// The shapes of a collection file (collection.schema.json) once read and checked, and of what a
// run of it reports. Plain data: nothing here holds behaviour.

/** A server as the file writes it: a reference, or how to launch or reach it. */
export type ServerEntry =
  | string
  | {
      reference?: string
      profile?: string
      command?: string | string[]
      args?: string[]
      env?: Record<string, string>
      cwd?: string
      url?: string
      headers?: Record<string, string>
      protocol?: string
    }

/** A value the snapshot comparison leaves alone: at a JSONPath, or a pattern's matches in any string. */
export type Mask = { path: string; note?: string } | { pattern: string; name?: string; note?: string }

export interface JsonAssertion {
  path: string
  equals?: unknown
  matches?: string
  contains?: unknown
  exists?: boolean
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null'
  length?: number
  greaterThan?: number
  lessThan?: number
  schema?: Record<string, unknown> | boolean
}

/** A tool as a drift baseline holds it. */
export interface BaselineTool {
  name: string
  inputSchema?: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  [key: string]: unknown
}

export interface Expectations {
  error?: boolean | string | { code?: string; message?: string }
  result?: unknown
  json?: JsonAssertion[]
  outputSchema?: boolean
  schemaHash?: string
  drift?: { baseline: string | BaselineTool[]; allow?: 'non-breaking' | 'none' }
  maxLatency?: number | string
  task?: boolean
  masks?: Mask[]
}

export type Answers = Record<string, unknown> | 'accept' | 'decline' | 'cancel'

export type ListKind = 'tools' | 'resources' | 'templates' | 'prompts'

/** A step as the file writes it. */
export interface StepEntry {
  name?: string
  server?: string
  call?: string
  read?: string
  prompt?: string
  list?: ListKind
  arguments?: Record<string, unknown>
  answers?: Answers
  task?: boolean
  timeout?: number | string
  skip?: boolean | string
  capture?: Record<string, string>
  expect?: Expectations
}

/** The file as written (after the schema accepted it). */
export interface CollectionDocument {
  $schema?: string
  name?: string
  description?: string
  variables?: Record<string, string | number | boolean>
  timeout?: number | string
  parallel?: boolean
  masks?: Mask[]
  servers: Record<string, ServerEntry>
  steps: StepEntry[]
}

/** What a step does. */
export type Operation =
  | { kind: 'call'; name: string }
  | { kind: 'read'; uri: string }
  | { kind: 'prompt'; name: string }
  | { kind: 'list'; list: ListKind }

/** A checked step: its entry, and what the checks worked out. */
export interface Step {
  /** Its place in `steps` (0-based). */
  index: number
  /** Its name, or one made from what it does (`call echo`). */
  name: string
  /** The server it runs on (the only one, when the step names none). */
  server: string
  operation: Operation
  /** The 1-based line of the step in the file (0: not from a file). */
  line: number
  entry: StepEntry
  /** The `${NAME}`s its request uses that earlier steps capture. */
  uses: string[]
}

/** A collection read from a file (or built in memory) and checked. */
export interface Collection {
  /** The file as messages name it (the path it was given by; '' when built in memory). */
  file: string
  /** Where relative paths in it (commands, cwd, drift baselines) are taken from: the file's directory. */
  directory: string
  /** `yaml` or `json`: how it is written back. */
  format: 'yaml' | 'json'
  name: string
  document: CollectionDocument
  steps: Step[]
  /** The 1-based line of each server's entry (0: not from a file). */
  serverLines: Record<string, number>
}

/** One assertion that did not hold. */
export interface Failure {
  /** Which assertion: `error`, `result`, `json`, `outputSchema`, `schemaHash`, `drift`, `maxLatency`, `task`, `capture`, `run`. */
  assertion: string
  message: string
  /** Where in the result (a normalized JSONPath), when it is about one place. */
  path?: string
  expected?: unknown
  actual?: unknown
}

/** What a step observed: the result or the error, how long it took, whether it became a task. */
export interface Observation {
  /** The result (tools/call, resources/read, prompts/get; `{tools: […]}` and the like for lists), `_meta` left out. */
  result?: unknown
  /** The failure: a thrown error's code and message, or `tool_error` for a result with `isError`. */
  error?: { code: string; message: string; rpcCode?: number }
  latencyMs: number
  /** The call became a task. */
  task: boolean
}

export type StepStatus = 'passed' | 'failed' | 'error' | 'skipped'

export interface StepResult {
  index: number
  name: string
  server: string
  line: number
  /** failed: an assertion did not hold; error: the step could not run (its server could not be reached). */
  status: StepStatus
  durationMs: number
  failures: Failure[]
  /** Why it was skipped (`skip`, --bail, the time limit, a capture it needs that did not happen). */
  skipped?: string
  observation?: Observation
  /** Values this step captured for later ones. */
  captured?: Record<string, unknown>
}

export interface CollectionResult {
  file: string
  name: string
  steps: StepResult[]
  durationMs: number
  /** Servers that could not be launched or reached, with the reason. */
  unreachable: Array<{ server: string; message: string; code: string }>
}
