// @module-tag integration
// Shell completion, end to end: the scripts `mcp-kit completion <shell>` prints, sourced into a
// real bash (and fish, and zsh on a terminal, where installed) that asks the CLI for candidates:
// commands, flags, profile names, and the tools and parameters a saved profile recorded, with no
// server started and none of the heavy modules loaded.

import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importedModules } from '@mcp-kit/fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { binPath, runCli } from '../../helpers/helpers.js'
import { openTerminal } from '../../helpers/terminal.js'

const directory = mkdtempSync(join(tmpdir(), 'mcp-kit-completion-'))
const configHome = join(directory, 'config')
const bin = join(directory, 'bin')
const marker = join(directory, 'server-started')
/** The environment of a user who installed mcp-kit and keeps profiles in configHome. */
const env = {
  PATH: `${bin}:${process.env.PATH}`,
  XDG_CONFIG_HOME: configHome,
  HOME: directory,
  MCP_KIT_HOME: '',
}

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0
}

beforeAll(async () => {
  // `mcp-kit` on PATH, as the completion scripts call it.
  mkdirSync(bin)
  writeFileSync(
    join(bin, 'mcp-kit'),
    `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(binPath)} "$@"\n`,
  )
  chmodSync(join(bin, 'mcp-kit'), 0o755)
  // A profile saved from the live demo server: its tools (echo, add) and their schemas.
  const created = await runCli(['profile', 'create', 'calc', '--from', '@demo'], { env })
  expect(created.code, created.stderr).toBe(0)
  // A profile whose server would leave a mark if anything started it.
  const tripwire = join(configHome, 'mcp-kit', 'profiles', 'tripwire')
  mkdirSync(tripwire, { recursive: true })
  writeFileSync(
    join(tripwire, '_meta.json'),
    JSON.stringify({
      command: process.execPath,
      args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started')`],
      env: { API_TOKEN: '${secret:tripwire/env/API_TOKEN}' },
    }),
  )
  writeFileSync(
    join(tripwire, 'lookup.json'),
    JSON.stringify({
      description: 'Finds a thing',
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string' }, mode: { enum: ['fast', 'exact'] } },
      },
    }),
  )
}, 60_000)

afterAll(() => rmSync(directory, { recursive: true, force: true }))

/**
 * Runs bash's completion function the way bash does on Tab: COMP_WORDS split at blanks and at
 * COMP_WORDBREAKS characters (`=`, `:`), COMP_LINE and COMP_POINT for the line up to the cursor.
 */
function bashComplete(words: string[], line: string): string[] {
  const script = [
    'source <(mcp-kit completion bash)',
    'COMP_WORDS=("$@")',
    'COMP_CWORD=$(( $# - 1 ))',
    `COMP_LINE=${JSON.stringify(line)}`,
    'COMP_POINT=${#COMP_LINE}',
    '_mcp_kit_yargs_completions',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n')
  const output = execFileSync('bash', ['-c', script, 'bash', ...words], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  })
  return output.split('\n').filter((word) => word !== '')
}

describe('completion scripts', () => {
  it('are printed for bash, zsh and fish, and each is valid in its shell', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const result = await runCli(['completion', shell], { env })
      expect(result.code, shell).toBe(0)
      expect(result.stdout, shell).toContain('--get-yargs-completions')
      expect(result.stdout, shell).toContain(`SHELL=${shell}`)
      if (!installed(shell)) {
        console.warn(`${shell} is not installed: its completion script was generated but not checked`)
        continue
      }
      const file = join(directory, `completion.${shell}`)
      writeFileSync(file, result.stdout)
      const check = spawnSync(shell, ['-n', file], { encoding: 'utf8' })
      expect(check.status, `${shell} -n: ${check.stderr}`).toBe(0)
    }
    // Without an argument: the shell in $SHELL.
    const fromShell = await runCli(['completion'], { env: { ...env, SHELL: '/usr/bin/fish' } })
    expect(fromShell.stdout).toContain('complete -c mcp-kit')
  })
})

describe('bash completion', () => {
  it("completes a profile's tool names from its saved schemas", () => {
    expect(bashComplete(['mcp-kit', 'cat', '@calc/'], 'mcp-kit cat @calc/')).toEqual([
      '@calc/add',
      '@calc/echo',
    ])
    expect(bashComplete(['mcp-kit', 'cat', '@calc/e'], 'mcp-kit cat @calc/e')).toEqual(['@calc/echo'])
    // bash splits `@calc?tool=e` at `=`: only the part after it is replaced.
    expect(bashComplete(['mcp-kit', 'cat', '@calc?tool', '=', 'e'], 'mcp-kit cat @calc?tool=e')).toEqual([
      'echo',
    ])
    // One profile left: its name and its tools, so the next Tab lists them.
    expect(bashComplete(['mcp-kit', 'inspect', '@ca'], 'mcp-kit inspect @ca')).toEqual([
      '@calc',
      '@calc/add',
      '@calc/echo',
    ])
  })

  it('completes commands, flags, profile names and parameter names', () => {
    expect(bashComplete(['mcp-kit', 'ca'], 'mcp-kit ca')).toEqual(['cat'])
    expect(bashComplete(['mcp-kit', 'profile', 'up'], 'mcp-kit profile up')).toEqual(['update'])
    expect(bashComplete(['mcp-kit', 'task', ''], 'mcp-kit task ')).toEqual(['get', 'cancel'])
    expect(bashComplete(['mcp-kit', 'task', 'get', '@ca'], 'mcp-kit task get @ca')).toContain('@calc')
    expect(bashComplete(['mcp-kit', 'cat', '--raw-s'], 'mcp-kit cat --raw-s')).toEqual(['--raw-strings'])
    expect(bashComplete(['mcp-kit', 'profile', 'info', ''], 'mcp-kit profile info ')).toEqual([
      'calc',
      'tripwire',
      'demo',
    ])
    expect(bashComplete(['mcp-kit', 'cat', '@calc/add', ''], 'mcp-kit cat @calc/add ')).toEqual(['a=', 'b='])
    // Flags before the reference, a parameter already given, a flag's value.
    expect(
      bashComplete(
        ['mcp-kit', 'cat', '--raw', '--timeout', '5', '@calc/add', 'a=1', ''],
        'mcp-kit cat --raw --timeout 5 @calc/add a=1 ',
      ),
    ).toEqual(['b='])
    expect(
      bashComplete(['mcp-kit', 'inspect', '@calc', '--format', ''], 'mcp-kit inspect @calc --format '),
    ).toEqual(['text', 'json'])
    // The secrets profiles refer to (keys only: a value is never offered).
    expect(bashComplete(['mcp-kit', 'profile', 'secret', 'set', ''], 'mcp-kit profile secret set ')).toEqual([
      'tripwire/env/API_TOKEN',
    ])
    // An enum's values, after bash split the word at `=`.
    expect(
      bashComplete(
        ['mcp-kit', 'cat', '@tripwire/lookup', 'mode', '=', ''],
        'mcp-kit cat @tripwire/lookup mode=',
      ),
    ).toEqual(['fast', 'exact'])
  })

  it('starts no server and loads neither the MCP SDK, ajv nor undici', async () => {
    expect(bashComplete(['mcp-kit', 'cat', '@tripwire/lookup', ''], 'mcp-kit cat @tripwire/lookup ')).toEqual(
      ['query=', 'mode='],
    )
    expect(existsSync(marker)).toBe(false)
    for (const words of [
      ['mcp-kit', 'cat', '@tripwire/lookup', ''],
      ['mcp-kit', 'cat', '--ti'],
      ['mcp-kit', 'profile', 'info', ''],
    ]) {
      const { code, stdout, urls } = await importedModules([binPath, '--get-yargs-completions', ...words], {
        env,
      })
      expect(code, words.join(' ')).toBe(0)
      expect(stdout, words.join(' ')).not.toBe('')
      expect(
        urls.filter((url) => /@modelcontextprotocol|\/ajv\/|\/undici\//.test(url)),
        words.join(' '),
      ).toEqual([])
    }
    expect(existsSync(marker)).toBe(false)
  })
})

/**
 * Calls bash's completion function with what bash itself gives it on Tab (seen in bash 5.2): the
 * words split at blanks and at COMP_WORDBREAKS (`=`, `:`, `@`) but a quoted word kept whole,
 * quote included; and readline's word being completed as $2 (the text after an open quote, or
 * after the last break; `@` stays in it).
 */
function bashCompleteAs(words: string[], line: string, current: string): string[] {
  const script = [
    'source <(mcp-kit completion bash)',
    'COMP_WORDS=("${@:2}")',
    'COMP_CWORD=$(( $# - 2 ))',
    `COMP_LINE=${JSON.stringify(line).replace(/\$/g, '\\$')}`,
    'COMP_POINT=${#COMP_LINE}',
    '_mcp_kit_yargs_completions mcp-kit "$1" "${COMP_WORDS[COMP_CWORD-1]}"',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n')
  const output = execFileSync('bash', ['-c', script, 'bash', current, ...words], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  })
  return output.split('\n').filter((word) => word !== '')
}

describe('bash completion of quoted words', () => {
  it('completes inside an open quote, single or double, offering what goes after the quote', () => {
    expect(bashCompleteAs(['mcp-kit', 'cat', "'@calc/ec"], "mcp-kit cat '@calc/ec", '@calc/ec')).toEqual([
      '@calc/echo',
    ])
    expect(
      bashCompleteAs(['mcp-kit', 'cat', '"@calc/echo?mes'], 'mcp-kit cat "@calc/echo?mes', '@calc/echo?mes'),
    ).toEqual(['@calc/echo?message='])
    // A quoted value with a blank, then the next parameter and its values.
    const typed = '@tripwire/lookup?query=hello world&mo'
    expect(bashCompleteAs(['mcp-kit', 'cat', `'${typed}`], `mcp-kit cat '${typed}`, typed)).toEqual([
      '@tripwire/lookup?query=hello world&mode=',
    ])
    const value = '@tripwire/lookup?query=hello world&mode=e'
    expect(bashCompleteAs(['mcp-kit', 'cat', `"${value}`], `mcp-kit cat "${value}`, value)).toEqual([
      '@tripwire/lookup?query=hello world&mode=exact',
    ])
    // Inside double quotes, a candidate's " and \ are escaped as the shell will read them.
    const quoted = `@tripwire/lookup?query=it's \\"x\\"&mode=f`
    expect(bashCompleteAs(['mcp-kit', 'cat', `"${quoted}`], `mcp-kit cat "${quoted}`, quoted)).toEqual([
      `@tripwire/lookup?query=it's \\"x\\"&mode=fast`,
    ])
  })

  it('reads an earlier quoted word as one word, and a closed quote as the shell will', () => {
    const reference = "'@tripwire/lookup?query=hello world'"
    expect(bashCompleteAs(['mcp-kit', 'cat', reference, 'mo'], `mcp-kit cat ${reference} mo`, 'mo')).toEqual([
      'mode=',
    ])
    expect(bashCompleteAs(['mcp-kit', 'cat', reference, ''], `mcp-kit cat ${reference} `, '')).toEqual([
      'mode=',
    ])
    // The whole word quoted and closed: the candidates replace it, quoted for a bare word.
    const closed = "'@tripwire/lookup?query=hello world&mode='"
    expect(bashCompleteAs(['mcp-kit', 'cat', closed], `mcp-kit cat ${closed}`, closed)).toEqual([
      '@tripwire/lookup?query=hello\\ world\\&mode=fast',
      '@tripwire/lookup?query=hello\\ world\\&mode=exact',
    ])
    // A blank escaped with a backslash; bash split the word at `@` and `=`.
    expect(
      bashCompleteAs(
        ['mcp-kit', 'cat', '@', 'tripwire/lookup?query', '=', 'hello\\ world\\&mo'],
        'mcp-kit cat @tripwire/lookup?query=hello\\ world\\&mo',
        'hello\\ world\\&mo',
      ),
    ).toEqual(['hello\\ world\\&mode='])
  })

  it('keeps the @ that bash splits off a bare word', () => {
    expect(bashCompleteAs(['mcp-kit', 'cat', '@', 'calc/ec'], 'mcp-kit cat @calc/ec', '@calc/ec')).toEqual([
      '@calc/echo',
    ])
  })

  it.runIf(installed('tmux'))('completes quoted words on a terminal (tmux)', async () => {
    const terminal = openTerminal('bash --norc --noprofile -i', { env })
    try {
      terminal.type("PS1='$ '; source <(mcp-kit completion bash); clear")
      terminal.press('Enter')
      await expect.poll(() => terminal.screen().trim(), { timeout: 15_000 }).toBe('$')
      // The line being edited (tmux leaves out trailing blanks).
      const line = () =>
        terminal
          .screen()
          .split('\n')
          .filter((text) => text.startsWith('$ '))
          .at(-1)
          ?.trimEnd() ?? ''
      terminal.type("mcp-kit cat '@tripwire/lookup?query=hello world&mo")
      terminal.press('Tab')
      await expect
        .poll(line, { timeout: 15_000 })
        .toBe("$ mcp-kit cat '@tripwire/lookup?query=hello world&mode='")
      terminal.press('C-u')
      terminal.type("mcp-kit cat '@calc/ec")
      terminal.press('Tab')
      await expect.poll(line, { timeout: 15_000 }).toBe("$ mcp-kit cat '@calc/echo'")
      terminal.type('mes')
      terminal.press('Tab')
      await expect.poll(line, { timeout: 15_000 }).toBe("$ mcp-kit cat '@calc/echo' message=")
      terminal.press('C-u')
      terminal.type('mcp-kit cat @calc/ec')
      terminal.press('Tab')
      await expect.poll(line, { timeout: 15_000 }).toBe('$ mcp-kit cat @calc/echo')
    } finally {
      terminal.close()
    }
  })
})

describe.runIf(installed('fish'))('fish completion', () => {
  it('completes tools and parameters with their descriptions', () => {
    const script = join(directory, 'mcp-kit.fish')
    writeFileSync(
      script,
      execFileSync(process.execPath, [binPath, 'completion', 'fish'], { encoding: 'utf8' }),
    )
    const complete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${script}; complete -C ${JSON.stringify(line)}`], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      })
    expect(complete('mcp-kit cat @calc/')).toMatch(/^@calc\/add\tAdds two numbers\n@calc\/echo\t/)
    expect(complete('mcp-kit cat @calc/echo ')).toMatch(/^message=\tstring, required/)
  })
})

describe.runIf(installed('zsh') && installed('tmux'))('zsh completion', () => {
  it('completes tool names on a terminal (tmux)', async () => {
    const script = join(directory, '_mcp-kit')
    writeFileSync(
      script,
      execFileSync(process.execPath, [binPath, 'completion', 'zsh'], { encoding: 'utf8' }),
    )
    const terminal = openTerminal('zsh -f', { env })
    try {
      terminal.type(`autoload -Uz compinit && compinit -u -d ${directory}/zcompdump && source ${script}`)
      terminal.press('Enter')
      terminal.type('mcp-kit cat @calc/')
      terminal.press('Tab')
      await expect.poll(terminal.screen, { timeout: 15_000 }).toMatch(/@calc\/echo\s+-- Returns the message/)
    } finally {
      terminal.close()
    }
  })
})
