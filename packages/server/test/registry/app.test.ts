import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ServerError } from '../../src/errors.js'
import { defineApp } from '../../src/registry/app.js'
import { createToolRegistry } from '../../src/registry/registry.js'
import { createRuntime } from '../../src/runtime/runtime.js'

const mime = 'text/html;profile=mcp-app'

function refusal(define: () => unknown): string {
  try {
    define()
  } catch (error) {
    expect(ServerError.isInstance(error)).toBe(true)
    return (error as ServerError).message
  }
  throw new Error('the app was accepted')
}

describe('defineApp', () => {
  test('a view as HTML text: the ui:// resource with its MIME type, CSP and permissions, and the tool _meta', async () => {
    const app = defineApp({
      uri: 'ui://clock/view',
      name: 'Clock',
      html: '<!doctype html><p>tick</p>',
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { clipboardWrite: {} },
      prefersBorder: true,
    })
    const registry = createToolRegistry()
      .resource(app.resource)
      .tool({ name: 'clock', _meta: app.toolMeta, handler: () => 'noon' })
    const runtime = createRuntime(registry)
    const ui = {
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
      permissions: { clipboardWrite: {} },
      prefersBorder: true,
    }
    expect(runtime.listTools()[0]?._meta).toEqual({ ui: { resourceUri: 'ui://clock/view' } })
    expect(runtime.listResources()[0]).toMatchObject({
      uri: 'ui://clock/view',
      mimeType: mime,
      _meta: { ui },
    })
    const read = await runtime.readResource('ui://clock/view')
    expect(read.contents).toEqual([
      { uri: 'ui://clock/view', mimeType: mime, text: '<!doctype html><p>tick</p>', _meta: { ui } },
    ])
  })

  test('a view from a file is read at each read, so edits show', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'app-')), 'view.html')
    writeFileSync(file, '<p>one</p>')
    const app = defineApp({ uri: 'ui://f/view', name: 'F', file, visibility: ['app'] })
    expect(app.toolMeta).toEqual({ ui: { resourceUri: 'ui://f/view', visibility: ['app'] } })
    const runtime = createRuntime(createToolRegistry().resource(app.resource))
    expect((await runtime.readResource('ui://f/view')).contents[0]).toMatchObject({ text: '<p>one</p>' })
    writeFileSync(file, '<p>two</p>')
    expect((await runtime.readResource('ui://f/view')).contents[0]).toMatchObject({ text: '<p>two</p>' })
  })

  test('mistakes fail at once, naming the app', () => {
    const html = '<p></p>'
    expect(refusal(() => defineApp({ uri: 'http://x' as 'ui://x', name: 'x', html }))).toMatch(
      /must start with 'ui:\/\/'/,
    )
    expect(refusal(() => defineApp({ uri: 'ui://x', name: '', html }))).toMatch(/app 'ui:\/\/x' needs a name/)
    expect(refusal(() => defineApp({ uri: 'ui://x', name: 'x' }))).toMatch(/one of html and file/)
    expect(refusal(() => defineApp({ uri: 'ui://x', name: 'x', html, file: '/nope' }))).toMatch(
      /one of html and file/,
    )
    expect(refusal(() => defineApp({ uri: 'ui://x', name: 'x', file: '/no/such/file.html' }))).toMatch(
      /cannot read/,
    )
    expect(
      refusal(() =>
        defineApp({
          uri: 'ui://x',
          name: 'x',
          html,
          csp: { connectDomains: ['https://a.com; script-src *'] },
        }),
      ),
    ).toMatch(/csp.connectDomains must be a list of origins/)
    expect(
      refusal(() => defineApp({ uri: 'ui://x', name: 'x', html, csp: { scriptDomains: [] } as never })),
    ).toMatch(/unknown csp key 'scriptDomains'/)
    expect(
      refusal(() => defineApp({ uri: 'ui://x', name: 'x', html, permissions: { usb: {} } as never })),
    ).toMatch(/unknown permission 'usb'/)
    expect(
      refusal(() => defineApp({ uri: 'ui://x', name: 'x', html, visibility: ['user'] as never })),
    ).toMatch(/visibility/)
  })
})
