import { describe, expect, it } from 'vitest'
import { parseReference } from '../../src/index.js'
import { codeOf } from '../helpers/code-of.js'

describe('launchers map exactly as in the JN design', () => {
  it('uvx: package/command with command= sub-command', () => {
    const parsed = parseReference('mcp+uvx://biomcp-python/biomcp?command=run')
    expect(parsed.type === 'naked' && parsed.server).toEqual({
      transport: 'stdio',
      command: 'uv',
      args: ['run', '--with', 'biomcp-python', 'biomcp', 'run'],
    })
    expect(parsed.operation).toEqual({ kind: 'inspect' })
  })

  it('uvx: a bare package runs the command of the same name', () => {
    const parsed = parseReference('mcp+uvx://mcp-server-fetch==2025.1.1')
    expect(parsed.type === 'naked' && parsed.server).toMatchObject({
      args: ['run', '--with', 'mcp-server-fetch==2025.1.1', 'mcp-server-fetch'],
    })
  })

  it('npx: scoped package with a version tag', () => {
    const parsed = parseReference('mcp+npx://@upstash/context7-mcp@latest')
    expect(parsed.type === 'naked' && parsed.server).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@upstash/context7-mcp@latest'],
    })
  })

  it('python: relative script path', () => {
    const parsed = parseReference('mcp+python://./my_server.py')
    expect(parsed.type === 'naked' && parsed.server).toEqual({
      transport: 'stdio',
      command: 'python3',
      args: ['./my_server.py'],
    })
  })

  it('node: relative and absolute script paths', () => {
    expect(parseReference('mcp+node://./server.js')).toMatchObject({
      server: { command: 'node', args: ['./server.js'] },
    })
    expect(parseReference('mcp+node:///abs/x.js')).toMatchObject({
      server: { command: 'node', args: ['/abs/x.js'] },
      target: '/abs/x.js',
    })
  })

  it('http and https URLs, with and without the mcp+ prefix', () => {
    expect(parseReference('mcp+http://127.0.0.1:3000/mcp')).toMatchObject({
      server: { transport: 'http', url: 'http://127.0.0.1:3000/mcp' },
    })
    expect(parseReference('mcp+https://example.com/mcp?tool=x')).toMatchObject({
      server: { transport: 'http', url: 'https://example.com/mcp' },
      operation: { kind: 'callTool', name: 'x', args: {} },
    })
    expect(parseReference('http://localhost:8080/mcp')).toMatchObject({
      launcher: 'http',
      server: { url: 'http://localhost:8080/mcp' },
    })
  })
})

describe('query keys', () => {
  it('tool= with arguments, which never reach the command line', () => {
    const parsed = parseReference('mcp+npx://pkg?tool=search&gene=BRAF&limit=5')
    expect(parsed.operation).toEqual({ kind: 'callTool', name: 'search', args: { gene: 'BRAF', limit: '5' } })
    expect(parsed.type === 'naked' && parsed.server).toEqual({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'pkg'],
    })
  })

  it('repeated keys become lists, in order', () => {
    expect(parseReference('mcp+npx://pkg?tool=t&tag=a&tag=b&tag=c').operation).toEqual({
      kind: 'callTool',
      name: 't',
      args: { tag: ['a', 'b', 'c'] },
    })
  })

  it('resource=, prompt= and list=', () => {
    expect(parseReference('mcp+npx://pkg?resource=file%3A%2F%2F%2Ftmp%2Fa.txt').operation).toEqual({
      kind: 'readResource',
      uri: 'file:///tmp/a.txt',
    })
    expect(parseReference('mcp+npx://pkg?prompt=greet&name=Ada').operation).toEqual({
      kind: 'getPrompt',
      name: 'greet',
      args: { name: 'Ada' },
    })
    expect(parseReference('mcp+npx://pkg?list=tools').operation).toEqual({ kind: 'listTools' })
    expect(parseReference('mcp+npx://pkg?list=resources').operation).toEqual({ kind: 'listResources' })
    expect(parseReference('mcp+npx://pkg?list=templates').operation).toEqual({
      kind: 'listResourceTemplates',
    })
    expect(parseReference('mcp+npx://pkg?list=prompts').operation).toEqual({ kind: 'listPrompts' })
  })

  it('repeated arg= are launch arguments in order, after the command= sub-command', () => {
    const parsed = parseReference('mcp+node://./s.js?command=serve&arg=--port&arg=0&arg=--verbose')
    expect(parsed).toMatchObject({
      server: { command: 'node', args: ['./s.js', 'serve', '--port', '0', '--verbose'] },
    })
  })

  it('env.NAME= sets the environment of the launched server', () => {
    const parsed = parseReference('mcp+npx://pkg?env.API_KEY=s3cret&env.DEBUG=1')
    expect(parsed).toMatchObject({ server: { env: { API_KEY: 's3cret', DEBUG: '1' } } })
  })

  it('arg:NAME= passes tool arguments whose names are reserved', () => {
    const parsed = parseReference('mcp+npx://pkg?tool=t&arg:tool=hammer&arg:list=x&arg:env.X=1&arg:arg=2')
    expect(parsed.operation).toEqual({
      kind: 'callTool',
      name: 't',
      args: { tool: 'hammer', list: 'x', 'env.X': '1', arg: '2' },
    })
  })

  it('percent-decodes keys, values and targets; + stays a plus', () => {
    const parsed = parseReference(
      'mcp+node://./my%20server.js?tool=say&text=a%26b%3Dc+d%20e&caf%C3%A9=%E2%9C%93',
    )
    expect(parsed).toMatchObject({ target: './my server.js', server: { args: ['./my server.js'] } })
    expect(parsed.operation).toEqual({
      kind: 'callTool',
      name: 'say',
      args: { text: 'a&b=c+d e', café: '✓' },
    })
  })

  it('a key without = is an empty string', () => {
    expect(parseReference('mcp+npx://pkg?tool=t&flag').operation).toEqual({
      kind: 'callTool',
      name: 't',
      args: { flag: '' },
    })
  })

  it('__proto__ is an ordinary argument name', () => {
    const parsed = parseReference('mcp+npx://pkg?tool=t&__proto__=x')
    expect(parsed.operation.kind === 'callTool' && Object.keys(parsed.operation.args)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).x).toBeUndefined()
  })
})

describe('profile references', () => {
  it('@server, @server/tool and @server?query', () => {
    expect(parseReference('@biomcp')).toEqual({
      type: 'profile',
      profile: 'biomcp',
      query: { launchArgs: [], env: {}, params: {} },
      operation: { kind: 'inspect' },
    })
    expect(parseReference('@biomcp/search?gene=BRAF')).toMatchObject({
      profile: 'biomcp',
      tool: 'search',
      operation: { kind: 'callTool', name: 'search', args: { gene: 'BRAF' } },
    })
    expect(parseReference('@biomcp?list=tools').operation).toEqual({ kind: 'listTools' })
  })

  it('refuses path tricks in names, also percent-encoded', () => {
    for (const reference of [
      '@..',
      '@../etc',
      '@a/..',
      '@%2E%2E',
      '@a%2Fb',
      '@a%5Cb',
      '@/etc/passwd',
      '@a/b/c',
      '@a%00b',
      '@.hidden',
      '@',
      '@a/',
    ]) {
      expect(
        codeOf(() => parseReference(reference)),
        reference,
      ).toMatch(/^invalid_reference: /)
    }
  })
})

describe('errors say what was wrong', () => {
  it.each([
    ['foo://x', /unknown launcher 'foo'/],
    ['mcp+ruby://x.rb', /unknown launcher 'mcp\+ruby'/],
    ['uvx://pkg', /unknown launcher 'uvx'/],
    ['mcp+npx://', /empty target/],
    ['mcp+npx://?tool=x', /empty target/],
    ['', /empty server reference/],
    ['server.js', /did you mean mcp\+node:\/\/server\.js\?/],
    ['./tool.py', /did you mean mcp\+python:\/\/\.\/tool\.py\?/],
    ['mcp+npx://pkg?tool=a&tool=b', /'tool' is given more than once/],
    ['mcp+npx://pkg?tool=a&resource=b', /choose one of tool, resource/],
    ['mcp+npx://pkg?tool=a&prompt=hi', /If 'prompt' is an argument of tool 'a', write arg:prompt=hi/],
    ['@prof/a?prompt=hi%20there', /write arg:prompt=hi%20there/],
    ['mcp+npx://pkg?prompt=p&list=tools', /argument of prompt 'p', write arg:list=tools/],
    ['mcp+npx://pkg?tool=a&list=x', /\(an argument named 'list' is written arg:list=…\)/],
    ['mcp+npx://pkg?list=everything', /list="everything" is not one of tools, resources, templates, prompts/],
    ['mcp+npx://pkg?gene=BRAF', /argument 'gene' given, but there is no tool= or prompt=/],
    ['mcp+npx://pkg?resource=x&a=1', /a resource read takes no arguments/],
    ['mcp+npx://pkg?tool=a&x=%zz', /bad percent-encoding in value of 'x'/],
    ['mcp+npx://pkg?tool=a&%E0%A4=1', /bad percent-encoding in key/],
    ['mcp+npx://pkg?=1', /empty key/],
    ['mcp+npx://pkg?env.1BAD=x', /invalid environment variable name "1BAD"/],
    ['mcp+npx://pkg?arg:=x', /needs a parameter name/],
    ['mcp+npx://pkg?tool=', /tool= is empty/],
    ['mcp+http://example.com/mcp?arg=1', /apply to launched servers/],
    ['mcp+http://user:pw@example.com/', /credentials in the URL/],
    ['mcp+http://exa mple.com/', /not a valid URL/],
    ['mcp+uvx://a/b/c', /must be \{package\} or \{package\}\/\{command\}/],
    ['@prof?command=x', /command= applies to naked references/],
  ])('%s', (reference, message) => {
    expect(codeOf(() => parseReference(reference))).toMatch(message)
  })

  it('errors carry the stable code', () => {
    expect(codeOf(() => parseReference('mcp+npx://'))).toMatch(/^invalid_reference: /)
  })
})

describe('hostile references never reach a shell and are refused with a one-line reason', () => {
  it.each([
    'mcp+npx://pkg;rm -rf /',
    'mcp+npx://$(touch /tmp/pwned)',
    'mcp+npx://`id`',
    'mcp+npx://pkg|cat',
    'mcp+npx://pkg&&id',
    'mcp+npx://-e',
    'mcp+npx://--call=id',
    'mcp+uvx://pkg;id',
    'mcp+uvx://pkg/$(id)',
    'mcp+uvx://--with=x',
    'mcp+node://-e%20process.exit(7)',
    'mcp+node://--require=/tmp/x.js',
    'mcp+python://-c',
    'mcp+npx://pkg?command=--eval',
    'mcp+npx://pkg\n',
    'mcp+npx://pkg\0',
    'mcp+npx://pkg?tool=x&a=1\nb',
    'mcp+node://./s.js%0Aevil',
    'mcp+node://./s.js%00',
    'mcp+node://./s.js?arg=%0Aevil',
    'mcp+node://./s.js?arg=a%00b',
    'mcp+node://./s.js?command=a%0Ab',
    'mcp+npx://pkg?env.X=a%00b',
  ])('%j', (reference) => {
    const message = codeOf(() => parseReference(reference))
    expect(message).toMatch(/^invalid_reference: /)
    expect(message).not.toContain('\n')
  })

  it('shell syntax in a script path is just characters in one argv element', () => {
    const parsed = parseReference('mcp+node://./$(id);x.js')
    expect(parsed).toMatchObject({ server: { command: 'node', args: ['./$(id);x.js'] } })
  })

  it('percent-encoded control characters in tool arguments are data, not launch input', () => {
    const parsed = parseReference('mcp+npx://pkg?tool=t&text=line1%0Aline2')
    expect(parsed.operation).toEqual({ kind: 'callTool', name: 't', args: { text: 'line1\nline2' } })
  })
})
