// The interop matrix: MCP frameworks and published servers from npm, each over the transports it
// offers, with what mcp-kit must see of it (the protocol revision `auto` settles on, the tools,
// resources and prompts listed) and one call that is safe to make. Every version is pinned in
// package.json; the README lists them.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** A direct dependency's package.json (read from node_modules: not every package exports it). */
function manifestOf(packageName) {
  const path = join(here, 'node_modules', packageName, 'package.json')
  return { path, manifest: JSON.parse(readFileSync(path, 'utf8')) }
}

/** The entry script of an npm package's bin (run with `node <path>`). */
function binOf(packageName) {
  const { path, manifest } = manifestOf(packageName)
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0]
  return join(dirname(path), bin)
}

/** The installed version of a package (what the lockfile gave). */
export function versionOf(packageName) {
  return manifestOf(packageName).manifest.version
}

const server = (name) => join(here, 'servers', `${name}.js`)

/** How a framework server script is started: stdio, or HTTP on the port the test chose. */
function frameworkTransports(name, transports) {
  return Object.fromEntries(
    transports.map((kind) => [
      kind,
      kind === 'stdio'
        ? { command: process.execPath, args: [server(name)] }
        : { command: process.execPath, args: (port) => [server(name), '--http', '--port', String(port)] },
    ]),
  )
}

/** What every framework server offers (servers/offerings.js), and `add(2, 40)`. */
function frameworkExpectations(name, { sumRecord = 42 } = {}) {
  return {
    tools: ['add'],
    resources: (transport) => [`peer://${name}/${transport}/greeting`],
    prompts: ['greet'],
    call: {
      tool: 'add',
      arguments: { a: 2, b: 40 },
      records: [{ value: sumRecord }],
      text: String(sumRecord),
    },
  }
}

/**
 * The frameworks: a small server script each (servers/), written as the framework's README has it.
 * `eras`: the revision `auto` settles on, per transport.
 */
export const frameworks = [
  {
    name: 'fastmcp',
    package: 'fastmcp',
    transports: frameworkTransports('fastmcp', ['stdio', 'http']),
    eras: { stdio: '2025-11-25', http: '2025-11-25' },
    ...frameworkExpectations('fastmcp'),
  },
  {
    name: 'mcp-framework',
    package: 'mcp-framework',
    transports: frameworkTransports('mcp-framework', ['stdio', 'http']),
    eras: { stdio: '2025-11-25', http: '2025-11-25' },
    // mcp-framework sends a string a tool returns as JSON text ("\"42\""): the record is a string.
    ...frameworkExpectations('mcp-framework', { sumRecord: '42' }),
  },
  {
    name: 'hono-mcp',
    package: '@hono/mcp',
    transports: frameworkTransports('hono-mcp', ['http']),
    eras: { http: '2025-11-25' },
    ...frameworkExpectations('hono-mcp'),
  },
  {
    name: 'mcp-handler',
    package: 'mcp-handler',
    transports: frameworkTransports('mcp-handler', ['http']),
    eras: { http: '2026-07-28' },
    ...frameworkExpectations('mcp-handler'),
  },
  {
    name: 'tmcp',
    package: 'tmcp',
    transports: frameworkTransports('tmcp', ['stdio', 'http']),
    eras: { stdio: '2026-07-28', http: '2026-07-28' },
    ...frameworkExpectations('tmcp'),
  },
]

/**
 * The published servers. `workspace(directory)` makes what a server needs on disk (a directory to
 * serve, a memory file) in the test's scratch directory and returns its launch settings.
 */
export const publishedServers = [
  {
    name: 'server-everything',
    package: '@modelcontextprotocol/server-everything',
    transports: {
      stdio: { command: process.execPath, args: [binOf('@modelcontextprotocol/server-everything')] },
      http: {
        command: process.execPath,
        args: () => [binOf('@modelcontextprotocol/server-everything'), 'streamableHttp'],
        env: (port) => ({ PORT: String(port) }),
      },
    },
    // One gateway fronts both transports, and refuses two upstreams offering one resource URI.
    gateway: { http: { resources: [] } },
    eras: { stdio: '2025-11-25', http: '2025-11-25' },
    tools: ['echo', 'get-sum', 'get-tiny-image'],
    prompts: ['simple-prompt', 'args-prompt'],
    call: {
      tool: 'echo',
      arguments: { message: 'hi' },
      records: [{ type: 'text', text: 'Echo: hi' }],
      text: 'Echo: hi',
    },
  },
  {
    name: 'server-filesystem',
    package: '@modelcontextprotocol/server-filesystem',
    workspace: (directory) => {
      const served = join(directory, 'served')
      mkdirSync(served, { recursive: true })
      writeFileSync(join(served, 'hello.txt'), 'hello from disk\n')
      return {
        stdio: {
          command: process.execPath,
          args: [binOf('@modelcontextprotocol/server-filesystem'), served],
        },
        // The CLI offers its working directory as a root, and this server then serves the roots
        // instead of the directories on its command line (its README): the directory is the root.
        cliFlags: ['--root', served],
        call: {
          tool: 'read_text_file',
          arguments: { path: join(served, 'hello.txt') },
          records: [{ content: 'hello from disk\n' }],
          text: 'hello from disk',
        },
      }
    },
    eras: { stdio: '2025-11-25' },
    tools: ['read_text_file', 'list_directory', 'write_file', 'list_allowed_directories'],
  },
  {
    name: 'server-memory',
    package: '@modelcontextprotocol/server-memory',
    workspace: (directory) => {
      mkdirSync(directory, { recursive: true })
      const file = join(directory, 'memory.jsonl')
      writeFileSync(
        file,
        `${JSON.stringify({ type: 'entity', name: 'Ada', entityType: 'person', observations: ['wrote the first program'] })}\n`,
      )
      return {
        stdio: {
          command: process.execPath,
          args: [binOf('@modelcontextprotocol/server-memory')],
          env: { MEMORY_FILE_PATH: file },
        },
        call: {
          tool: 'open_nodes',
          arguments: { names: ['Ada'] },
          records: [
            {
              entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
              relations: [],
            },
          ],
          text: 'wrote the first program',
        },
      }
    },
    eras: { stdio: '2025-11-25' },
    tools: ['create_entities', 'read_graph', 'search_nodes', 'open_nodes'],
  },
  {
    name: 'server-sequential-thinking',
    package: '@modelcontextprotocol/server-sequential-thinking',
    transports: {
      stdio: { command: process.execPath, args: [binOf('@modelcontextprotocol/server-sequential-thinking')] },
    },
    eras: { stdio: '2025-11-25' },
    tools: ['sequentialthinking'],
    call: {
      tool: 'sequentialthinking',
      arguments: { thought: 'one step', nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 },
      records: [
        {
          thoughtNumber: 1,
          totalThoughts: 1,
          nextThoughtNeeded: false,
          branches: [],
          thoughtHistoryLength: 1,
        },
      ],
      text: '"thoughtNumber": 1',
    },
  },
  {
    // Its tools ask context7.com: listed, not called.
    name: 'context7',
    package: '@upstash/context7-mcp',
    transports: {
      stdio: { command: process.execPath, args: [binOf('@upstash/context7-mcp')] },
      http: {
        command: process.execPath,
        args: (port) => [binOf('@upstash/context7-mcp'), '--transport', 'http', '--port', String(port)],
        // Over HTTP it would also serve metrics on a fixed port (9464), which concurrent runs share.
        env: () => ({ OTEL_SDK_DISABLED: 'true' }),
      },
    },
    // One gateway fronts both transports, and refuses two upstreams offering one resource URI.
    gateway: { http: { resources: [] } },
    eras: { stdio: '2026-07-28', http: '2026-07-28' },
    tools: ['resolve-library-id', 'query-docs'],
  },
  {
    // Its tools call the Notion API: listed, not called. Over HTTP it wants a bearer token.
    name: 'notion',
    package: '@notionhq/notion-mcp-server',
    transports: {
      stdio: { command: process.execPath, args: [binOf('@notionhq/notion-mcp-server')] },
      http: {
        command: process.execPath,
        args: (port) => [
          binOf('@notionhq/notion-mcp-server'),
          '--transport',
          'http',
          '--port',
          String(port),
          '--auth-token',
          'framework-peers-token',
        ],
        headers: { Authorization: 'Bearer framework-peers-token' },
      },
    },
    // One gateway fronts both transports, and refuses two upstreams offering one resource URI.
    gateway: { http: { resources: [] } },
    eras: { stdio: '2025-11-25', http: '2025-11-25' },
    tools: ['API-get-self', 'API-post-search', 'API-retrieve-a-page'],
  },
]

/**
 * A matrix's rows, one per peer and transport: `id` (also its gateway upstream name), the
 * transport's launch settings, and what is expected of it. `directory` is the scratch directory
 * the peers' `workspace()` writes into.
 */
export function rowsOf(peers, directory) {
  return peers.flatMap((peer) => {
    const workspace = peer.workspace?.(join(directory, peer.name)) ?? {}
    const transports = peer.transports ?? { stdio: workspace.stdio }
    return Object.entries(transports).map(([transport, launch]) => ({
      id: `${peer.name}-${transport}`,
      peer: peer.name,
      package: peer.package,
      version: versionOf(peer.package),
      transport,
      launch,
      era: peer.eras[transport],
      tools: peer.tools,
      resources: typeof peer.resources === 'function' ? peer.resources(transport) : peer.resources,
      prompts: peer.prompts,
      call: workspace.call ?? peer.call,
      cliFlags: workspace.cliFlags ?? [],
      broken: peer.broken?.[transport],
      gatewayEntry: peer.gateway?.[transport] ?? {},
    }))
  })
}
