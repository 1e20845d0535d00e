// Property names as json-schema-to-typescript sees them: placeholders, put back in its code. The
// library reads every object as if it might be a schema (`$ref`, `hasOwnProperty`, `constructor`
// of a properties map change what it does), so a server's property names never reach it.

import { CliError } from '../../base/errors.js'
import { stringLiteral } from './module-literal.js'

/** Property names given to the library as placeholders, and put back in its code. */
export class PropertyNames {
  readonly #names: string[] = []
  readonly #placeholders = new Map<string, string>()
  constructor(readonly nonce: string) {}

  /** The placeholder the library sees for a property name. */
  key(name: string): string {
    let placeholder = this.#placeholders.get(name)
    if (placeholder === undefined) {
      placeholder = `McpKitProperty${this.nonce}N${this.#names.length}`
      this.#names.push(name)
      this.#placeholders.set(name, placeholder)
    }
    return placeholder
  }

  /** The code with each placeholder, as a property key, back as the name (quoted unless an identifier). */
  restore(code: string): string {
    const pattern = new RegExp(`McpKitProperty${this.nonce}N([0-9]+)(?=\\??:)`, 'g')
    const restored = code.replace(pattern, (_placeholder, index: string) => {
      const name = this.#names[Number(index)] as string
      return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : stringLiteral(name)
    })
    if (restored.includes(`McpKitProperty${this.nonce}`))
      throw new CliError(
        'internal',
        'a property name of the tool schemas could not be written; please report this server',
      )
    return restored
  }
}
