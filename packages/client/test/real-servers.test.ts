// @module-tag integration
// The client against real MCP servers nobody here wrote, from npm, by their local bin paths.

import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { npmServers } from '@mcp-kit/fixtures'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, type Session } from '../src/index.js'
import { groupAlive } from './helpers/processes.js'

describe('server-everything over stdio', () => {
  let session: Session
  beforeAll(async () => {
    session = await connect({ transport: 'stdio', command: process.execPath, args: [npmServers.everything] })
  })
  afterAll(async () => {
    const pid = session.process?.pid
    await session.close()
    expect(pid && groupAlive(pid)).toBe(false)
  })

  it('initializes and reports the server', () => {
    expect(session.serverInfo.name).toBe('mcp-servers/everything')
    expect(session.protocolVersion).toBe('2025-11-25')
    expect(session.transportKind).toBe('stdio')
    expect(session.capabilities.tools).toBeDefined()
  })

  it('completes a prompt argument, with the values already chosen as context', async () => {
    const completion = await session.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'department', value: 'E' },
    )
    expect(completion.values).toContain('Engineering')
    const names = await session.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'name', value: '' },
      { context: { arguments: { department: 'Engineering' } } },
    )
    expect(names.values.length).toBeGreaterThan(0)
  })

  it('lists every page of tools, resources, templates and prompts', async () => {
    const [tools, resources, templates, prompts] = await Promise.all([
      session.listTools(),
      session.listResources(),
      session.listResourceTemplates(),
      session.listPrompts(),
    ])
    expect(tools.map((tool) => tool.name)).toContain('echo')
    expect(resources.length).toBeGreaterThan(0)
    expect(templates.length).toBeGreaterThan(0)
    expect(prompts.length).toBeGreaterThan(0)
  })

  it('calls tools, reads resources and gets prompts', async () => {
    expect(await session.callTool('echo', { message: 'hi' })).toEqual({
      content: [{ type: 'text', text: 'Echo: hi' }],
    })
    const sum = await session.callTool('get-sum', { a: 2, b: 3 })
    expect(JSON.stringify(sum.content)).toContain('5')
    const [resource] = await session.listResources()
    const read = await session.readResource(resource!.uri)
    expect(read.contents[0]?.uri).toBe(resource!.uri)
    const [prompt] = await session.listPrompts()
    const got = await session.getPrompt(prompt!.name, {})
    expect(got.messages.length).toBeGreaterThan(0)
  })

  it('receives progress for long-running operations', async () => {
    const steps: number[] = []
    await session.callTool(
      'trigger-long-running-operation',
      { duration: 1, steps: 3 },
      { onProgress: (progress) => steps.push(progress.progress) },
    )
    expect(steps.length).toBeGreaterThanOrEqual(2)
  })
})

describe('server-everything: an experimental 2025-11-25 task', () => {
  it('simulate-research-query (taskSupport: required) is followed to its report; its question is answered', async () => {
    const asked: string[] = []
    const session = await connect(
      { transport: 'stdio', command: process.execPath, args: [npmServers.everything] },
      {
        input: {
          elicit: async (request) => {
            asked.push(request.message)
            return { action: 'accept', content: { interpretation: 'programming' } }
          },
        },
      },
    )
    try {
      const statuses: string[] = []
      const result = await session.callTool(
        'simulate-research-query',
        { topic: 'python', ambiguous: true },
        { onTask: (task) => statuses.push(task.status) },
      )
      expect(result.content[0]).toMatchObject({ type: 'text' })
      expect((result.content[0] as { text: string }).text).toContain(
        '# Research Report: python (programming)',
      )
      expect(result).not.toHaveProperty('_meta')
      expect(asked).toEqual([expect.stringContaining('could have multiple interpretations')])
      expect(statuses[0]).toBe('working')
      expect(statuses).toContain('input_required')
      expect(statuses.at(-1)).toBe('completed')
    } finally {
      await session.close()
    }
  })
})

describe('server-filesystem over stdio', () => {
  let dir: string
  let session: Session
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-kit-fs-'))
    await writeFile(join(dir, 'notes.txt'), 'remember the milk\n')
    session = await connect({
      transport: 'stdio',
      command: process.execPath,
      args: [npmServers.filesystem, dir],
    })
  })
  afterAll(async () => {
    await session.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('reads a file it is allowed to read', async () => {
    const result = await session.callTool('read_text_file', { path: join(dir, 'notes.txt') })
    expect(JSON.stringify(result.content)).toContain('remember the milk')
  })

  it('refuses a path outside its root, as a tool error', async () => {
    const result = await session.callTool('read_text_file', { path: '/etc/hostname' })
    expect(result.isError).toBe(true)
  })
})

describe('server-memory over stdio', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-kit-memory-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('keeps state between sessions in its memory file', async () => {
    const spec = {
      transport: 'stdio' as const,
      command: process.execPath,
      args: [npmServers.memory],
      env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
    }
    const first = await connect(spec)
    await first.callTool('create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    })
    await first.close()
    const second = await connect(spec)
    const graph = await second.callTool('read_graph', {})
    await second.close()
    expect(JSON.stringify(graph)).toContain('wrote the first program')
  })
})
