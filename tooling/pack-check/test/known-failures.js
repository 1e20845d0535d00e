// Known failures: README examples, shipped declarations and exchanges between packages that do
// not compile today because of defects in the packages' source (not in the READMEs). Each entry
// names the defect and the tsc error codes expected; its test fails when the codes change, and
// when the defect is fixed (then delete the entry). Keys: `<README path>#<example number>`,
// package names, exchange titles (declarations.test.js).

/** @type {Record<string, { codes: string[], defect: string }>} */
export const knownExampleFailures = {}

/** @type {Record<string, { codes: string[], defect: string }>} */
export const knownDeclarationFailures = {}

/** @type {Record<string, { codes: string[], defect: string }>} */
export const knownExchangeFailures = {}
