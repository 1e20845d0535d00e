/** The TypeScript compiler's module (`import ts from 'typescript'`), passed in by the caller. */
export type TypeScriptModule = object

/** Which folder of src/ may import which, and what else the reading allows. */
export interface LayerRules {
  /** Each folder of src/ and the folders it may import besides itself and the files at the top. */
  layers: Record<string, readonly string[]>
  /** Folders a folder may import types from (and nothing else). */
  typeLayers?: Record<string, readonly string[]>
  /** The files at the top that compose the package: they import anything, and nothing imports them but each other. Default index.ts, internal.ts. */
  entries?: readonly string[]
  /** Whether the shared files at the top may import types from the folders. */
  topImportsTypes?: boolean
}

export interface LayersReport {
  files: number
  /** Folders of src/ missing from the table, and folders of the table missing from src/. */
  unplaced: string[]
  /** One line per import against the rules. */
  violations: string[]
  folderCycles: string[]
  fileCycles: string[]
}

export interface Import {
  file: string
  specifier: string
  target: string | undefined
  typeOnly: boolean
}

export function sourceFiles(src: string): Map<string, string>
export function importsOf(typescript: TypeScriptModule, file: string, text: string): Import[]
export function folderOf(file: string, depth?: number): string
export function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[]
export function checkLayers(
  typescript: TypeScriptModule,
  src: string,
  rules: LayerRules,
  files?: Map<string, string>,
): LayersReport

/** Folders at the top of test/ that mirror nothing in src/ (helpers, fixtures, types). */
export const testSupportFolders: readonly string[]
/**
 * Where `test` does not mirror `src`: folders of test/ that are no folders of src/, and modules
 * beside the tests that are no tests. The `support` folders (default testSupportFolders) at the
 * top of test/ and `__snapshots__` anywhere are allowed.
 */
export function unmirroredTests(
  src: string,
  test: string,
  options?: { support?: readonly string[] },
): string[]
