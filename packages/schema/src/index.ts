// Public API of @mcp-kit/schema. Any new export added here becomes public API; the export list
// is pinned in test/exports.test.ts so that growth is a conscious act. What only mcp-kit's own
// packages use is in src/internal.ts.
// (Each group comment stands apart so that import sorting keeps the groups.)

// Hashing: detect that a server's tool schemas changed

export type { ToolSignature } from './hash.js'
export { canonicalToolSignatures, hashTools, toolSignature } from './hash.js'
export type { TypeSignature } from './json-schema.js'
export type { ToolLike } from './tool-like.js'

// Diffing: say what changed and whether it breaks callers

export type { ChangeSummary, ToolChange, ToolChangeClass, ToolChangeKind } from './changes.js'
export { hasBreakingChanges, summarizeChanges } from './changes.js'
export { diffTools } from './diff.js'

// Contracts: what a typed client relies on (parameters and result fields), hashed and diffed

export type { FieldShape, ToolContract } from './contract.js'
export { diffContracts, hashContract, toolContract } from './contract.js'

// Coercion: query-string values to the types an inputSchema asks for

export type { CoerceOptions } from './coerce.js'
export { coerceArguments } from './coerce.js'

// Validation: every problem with its parameter path (ajv, loaded on first use)

export { formatProblems } from './problems.js'
export type { ArgumentProblem, ValidationResult } from './validate.js'
export { validateArguments } from './validate.js'

// Errors

export type { SchemaErrorCode, SchemaErrorOptions } from './errors.js'
export { SchemaError } from './errors.js'
