// The TypeScript examples of a README, as the doc test compiles and runs them.
//
// Conventions for README authors:
// - ```ts (or ```typescript) blocks are examples: each is compiled on its own, as a user's file.
// - `file=NAME.ts` after the language (```ts file=tools.ts) names the block's file, so another
//   block of the same README can import it ('./tools.js'). GitHub shows only the language.
// - A ```text block that follows an example, with nothing between them but an optional line
//   `prints` or `prints:`, is what the example prints on stdout: the test runs it with node and
//   compares. Mark only examples that need no network and no servers but those they start.

/** @typedef {{ index: number, line: number, language: string, file: string | undefined, code: string, prints: string | undefined }} Example */

const fence = /^(`{3,}|~{3,})\s*([^\s`]*)(.*)$/

/**
 * Every fenced block of a Markdown text, in order, with the prose before it.
 * @param {string} markdown
 */
export function fencedBlocks(markdown) {
  const lines = markdown.split('\n')
  const blocks = []
  let prose = []
  for (let index = 0; index < lines.length; index++) {
    const opening = fence.exec(lines[index] ?? '')
    if (!opening) {
      prose.push(lines[index])
      continue
    }
    const [, marker = '', language = '', info = ''] = opening
    const body = []
    let end = index + 1
    while (end < lines.length && !(lines[end] ?? '').startsWith(marker)) body.push(lines[end++])
    blocks.push({
      language: language.toLowerCase(),
      info: info.trim(),
      // 1-based line of the block's first line of code
      line: index + 2,
      code: body.length > 0 ? `${body.join('\n')}\n` : '',
      proseBefore: prose.join('\n'),
    })
    prose = []
    index = end
  }
  return blocks
}

/**
 * The text outside fenced blocks (prose, tables, inline code).
 * @param {string} markdown
 */
export function proseOf(markdown) {
  const lines = markdown.split('\n')
  const prose = []
  for (let index = 0; index < lines.length; index++) {
    const opening = fence.exec(lines[index] ?? '')
    if (!opening) {
      prose.push(lines[index])
      continue
    }
    const marker = opening[1] ?? ''
    index++
    while (index < lines.length && !(lines[index] ?? '').startsWith(marker)) index++
  }
  return prose.join('\n')
}

/**
 * The TypeScript examples of a README, numbered from 1 in the order they appear.
 * @param {string} markdown
 * @returns {Example[]}
 */
export function typeScriptExamples(markdown) {
  const blocks = fencedBlocks(markdown)
  /** @type {Example[]} */
  const examples = []
  for (const [position, block] of blocks.entries()) {
    if (block.language !== 'ts' && block.language !== 'typescript') continue
    const next = blocks[position + 1]
    const prints =
      next?.language === 'text' && /^\s*(prints:?)?\s*$/i.test(next.proseBefore) ? next.code : undefined
    examples.push({
      index: examples.length + 1,
      line: block.line,
      language: block.language,
      file: /(?:^|\s)file=(\S+\.ts)(?:\s|$)/.exec(block.info)?.[1],
      code: block.code,
      prints,
    })
  }
  return examples
}

/**
 * The file an example is written to: its `file=` name, else `example-N.ts`.
 * @param {Example} example
 */
export function exampleFileName(example) {
  return example.file ?? `example-${example.index}.ts`
}
