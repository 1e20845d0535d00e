#!/usr/bin/env node
// Makes the Python environment the interop tests run their peers in: a venv at .venv (gitignored)
// with requirements.txt (FastMCP and the Python MCP SDK) installed by pip, from wherever pip is
// configured to look (PyPI, or a mirror in pip.conf / PIP_* variables). Idempotent: when .venv
// already holds these requirements for this Python it says so and returns at once. Bounded: the
// whole set-up gets MCP_KIT_PYTHON_SETUP_TIMEOUT seconds (default 300), pip gives up on a host it
// cannot reach instead of retrying, and on any failure the half-made venv is removed, the reason
// printed, and the exit code is 1 — the tests then skip, with a warning, and count as skipped.
//
//   node tooling/python-peers/setup.js          # MCP_KIT_PYTHON=python3.12 to pick the interpreter

import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { readyStamp, stampPath, venvDirectory, venvPython } from './peers.js'

const here = fileURLToPath(new URL('.', import.meta.url))
const python = process.env.MCP_KIT_PYTHON || 'python3'
const timeoutSeconds = Number(process.env.MCP_KIT_PYTHON_SETUP_TIMEOUT || 300)
const deadline = Date.now() + timeoutSeconds * 1000
const requirementsFile = `${here}requirements.txt`
const requirements = readFileSync(requirementsFile, 'utf8')

/** Runs a program; resolves {code, output} (stdout and stderr together), killed at the deadline. */
function run(command, args) {
  return new Promise((resolve) => {
    let output = ''
    let timedOut = false
    let child
    try {
      child = spawn(command, args, { cwd: here, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    } catch (error) {
      resolve({ code: null, output: String(error), timedOut })
      return
    }
    const timer = setTimeout(
      () => {
        timedOut = true
        try {
          process.kill(-child.pid, 'SIGKILL')
        } catch {}
      },
      Math.max(0, deadline - Date.now()),
    )
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    child.on('error', (error) => {
      output += String(error)
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output, timedOut })
    })
  })
}

/**
 * Says why (the last lines of the program's output too) and exits 1; `made`: a venv was being
 * made, so remove what there is of it.
 */
function fail(reason, result = { output: '' }, made = false, hint = '') {
  if (made) rmSync(venvDirectory, { recursive: true, force: true })
  if (result.timedOut) reason += ` after ${timeoutSeconds} s (MCP_KIT_PYTHON_SETUP_TIMEOUT): stopped`
  else reason += hint
  const tail = result.output.trim().split('\n').slice(-15).join('\n')
  console.error(`python-peers: could not make the Python environment: ${reason}${tail ? `\n${tail}` : ''}`)
  console.error('python-peers: the Python interop tests will be skipped')
  process.exit(1)
}

const started = Date.now()
const version = await run(python, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'])
if (version.code !== 0) fail(`'${python}' does not run (MCP_KIT_PYTHON names another)`, version)
const pythonVersion = version.output.trim()
const [major, minor] = pythonVersion.split('.').map(Number)
if (major < 3 || (major === 3 && minor < 10))
  fail(`FastMCP needs Python 3.10 or later; ${python} is ${pythonVersion}`)

// What the venv must have been made from: this Python, these requirements.
const wanted = createHash('sha256').update(`${pythonVersion}\n${requirements}`).digest('hex')
const stamp = readyStamp()
if (stamp?.key === wanted && existsSync(venvPython)) {
  console.log(
    `python-peers: ready (Python ${stamp.python}, fastmcp ${stamp.fastmcp}, mcp ${stamp.mcp}) in ${venvDirectory}`,
  )
  process.exit(0)
}

console.log(`python-peers: making ${venvDirectory} with ${python} ${pythonVersion}`)
rmSync(venvDirectory, { recursive: true, force: true })
const venv = await run(python, ['-m', 'venv', venvDirectory])
if (venv.code !== 0) fail(`${python} -m venv failed`, venv, true, ' (Debian: apt-get install python3-venv)')

// --retries 0: pip's default backs off and retries every unreachable index (PyPI on a machine that
// only has a mirror) five times per package, which turns a 20 s install into ten minutes.
const pip = await run(venvPython, [
  '-m',
  'pip',
  'install',
  '--disable-pip-version-check',
  '--no-input',
  '--quiet',
  '--retries',
  process.env.PIP_RETRIES || '0',
  '--timeout',
  process.env.PIP_TIMEOUT || '30',
  '-r',
  requirementsFile,
])
if (pip.code !== 0) fail('pip install -r requirements.txt failed', pip, true)

const installed = await run(venvPython, [
  '-c',
  'import json, importlib.metadata as m, fastmcp, mcp; print(json.dumps({"fastmcp": m.version("fastmcp"), "mcp": m.version("mcp")}))',
])
if (installed.code !== 0) fail('fastmcp was installed but does not import', installed, true)
const versions = JSON.parse(installed.output.trim().split('\n').at(-1))
const temporary = `${stampPath}.${process.pid}`
writeFileSync(temporary, `${JSON.stringify({ key: wanted, python: pythonVersion, ...versions })}\n`)
renameSync(temporary, stampPath)
console.log(
  `python-peers: ready (Python ${pythonVersion}, fastmcp ${versions.fastmcp}, mcp ${versions.mcp}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
)
