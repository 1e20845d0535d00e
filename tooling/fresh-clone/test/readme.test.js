// The README's "Try it" section, run as a newcomer would: a `git clone` of this repository into an
// empty directory, a fresh HOME, a plain environment (none of the npm_config_* variables that
// `pnpm test` sets for its children), then the section's commands exactly as written. The set-up
// and demo command must print the README's demo output and no warning; each `$ npx mcp-kit …`
// example must print what the README shows under it; the test command must be the one .ci/run
// runs (it is the whole suite, so it is not run again from here). Its inputs are the whole
// repository, not this package, so turbo never caches it (turbo.json).
//
// Two things are shared with the machine rather than fresh, to stay fast and offline: pnpm's
// package store (through XDG_DATA_HOME, which npm does not read; the install still links every
// package into the clone) and npm's download cache (npx's copy of pnpm). Neither holds settings.

import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const repository = fileURLToPath(new URL('../../..', import.meta.url))
const pnpm = ['-y', 'pnpm@10.34.8']

// The one line of this machine's own npm configuration (`nodedir` in its npmrc) that npm warns
// about on every command. It is not the project's; it is the only line let through.
const machineWarning =
  /^npm warn Unknown (user|global) config "nodedir"\. This will stop working in the next major version of npm\./

/** The fenced blocks of the README's "Try it" section, in order: `{ lang, text }`. */
function tryItBlocks(readme) {
  const start = readme.indexOf('\n## Try it')
  if (start === -1) throw new Error('the README has no "## Try it" section')
  const end = readme.indexOf('\n## ', start + 1)
  const section = readme.slice(start, end === -1 ? undefined : end)
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    lang: match[1],
    text: match[2],
  }))
}

/** `$ command` lines of a shell block, each with the output lines shown under it. */
function examples(text) {
  const result = []
  for (const line of text.split('\n')) {
    if (line.startsWith('$ ')) result.push({ command: line.slice(2), output: [] })
    else if (result.length > 0) result.at(-1).output.push(line)
  }
  return result.map(({ command, output }) => ({ command, output: `${output.join('\n').trimEnd()}\n` }))
}

/** The environment of a newcomer's shell: the machine's PATH, locale, certificates and proxies only. */
async function newcomerEnvironment(home) {
  const keep = /^(LANG|LC_\w+|TZ|TMPDIR|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR)|(HTTPS?|NO)_PROXY)$/i
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => keep.test(name)))
  // `pnpm test` puts workspace node_modules/.bin directories first on PATH; a newcomer has none.
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => entry !== '' && !entry.includes(`${join('node_modules', '.bin')}`))
    .join(delimiter)
  env.HOME = home
  const { stdout: cache } = await run('npm', ['config', 'get', 'cache'], { cwd: home })
  env.npm_config_cache = cache.trim()
  const { stdout: store } = await run('npx', [...pnpm, 'store', 'path'], { cwd: repository })
  const dataHome = resolve(store.trim(), '../../..')
  if (join(dataHome, 'pnpm', 'store') === resolve(store.trim(), '..')) env.XDG_DATA_HOME = dataHome
  return env
}

async function shell(command, cwd, env) {
  try {
    const { stdout, stderr } = await run('bash', ['-c', command], { cwd, env, maxBuffer: 64 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    return { code: error.code, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }
  }
}

function warnings(output) {
  return output.split('\n').filter((line) => /warn/i.test(line) && !machineWarning.test(line.trim()))
}

let scratch
let clone
let env
let blocks

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'mcp-kit-fresh-clone-'))
  clone = join(scratch, 'mcp-kit')
  const home = join(scratch, 'home')
  await mkdir(home)
  await run('git', ['clone', '--quiet', repository, clone])
  env = await newcomerEnvironment(home)
  blocks = tryItBlocks(await readFile(join(clone, 'README.md'), 'utf8'))
})

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

describe("the README's Try it section, in a fresh clone with a fresh HOME", () => {
  let setUp

  it('set-up and demo: installs without a warning and prints the output the README shows', async () => {
    const command = blocks.find((block) => block.lang === 'sh' && / demo$/.test(block.text.trim()))
    expect(command, 'a sh block ending in "demo"').toBeDefined()
    const shown = blocks[blocks.indexOf(command) + 1]
    expect(shown?.lang, 'the demo output block right after the command').toBe('')

    setUp = await shell(command.text.trim(), clone, env)
    expect(setUp.code, `exit status; stderr:\n${setUp.stderr.slice(-4000)}`).toBe(0)
    expect(warnings(`${setUp.stdout}\n${setUp.stderr}`)).toEqual([])
    // The README shows the launch line as /usr/bin/node /…/apps/…: this machine's node and clone.
    const output = setUp.stdout.replaceAll(process.execPath, '/usr/bin/node').replaceAll(clone, '/…')
    expect(output).toContain(shown.text)
  })

  it('each `$ npx mcp-kit …` example prints what the README shows, from the root and from a subdirectory', async () => {
    expect(setUp?.code, 'the set-up ran').toBe(0)
    const shownExamples = blocks
      .filter((block) => block.lang === 'sh')
      .flatMap((block) => examples(block.text))
      .filter((example) => example.command.startsWith('npx mcp-kit '))
    expect(shownExamples.length).toBeGreaterThan(0)
    for (const example of shownExamples) {
      for (const cwd of [clone, join(clone, 'packages', 'client')]) {
        const result = await shell(example.command, cwd, env)
        expect({ command: example.command, cwd, code: result.code, stdout: result.stdout }).toEqual({
          command: example.command,
          cwd,
          code: 0,
          stdout: example.output,
        })
        expect(warnings(result.stderr)).toEqual([])
      }
    }
  })

  it('the test command is the one .ci/run runs', async () => {
    const command = blocks.find((block) => block.lang === 'sh' && / test$/.test(block.text.trim()))
    expect(command, 'a sh block ending in "test"').toBeDefined()
    const ci = await readFile(join(clone, '.ci', 'run'), 'utf8')
    expect(ci.split('\n')).toContain(command.text.trim())
  })
})
