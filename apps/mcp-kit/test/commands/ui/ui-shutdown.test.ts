// @module-tag integration
// Ctrl-C ends `mcp-kit ui` while a page is open: the page's event stream reconnects as soon as it
// is cut, and a connection taken while the servers shut down must not keep the process alive.

import { npmServers } from '@mcp-kit/fixtures'
import { expect, it } from 'vitest'
import { launchChromium, startUi } from '../../helpers/ui-harness.js'

it('exits 0 on SIGINT with a page open', { timeout: 120_000 }, async () => {
  const browser = await launchChromium()
  try {
    for (let round = 0; round < 3; round++) {
      const ui = await startUi(['--', 'node', npmServers.everything])
      try {
        const page = await (await browser.newContext()).newPage()
        await page.goto(ui.url)
        await page.getByRole('button', { name: /^get-sum/ }).waitFor({ timeout: 60_000 })
        const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
          ui.child.once('exit', (code, signal) => resolve({ code, signal })),
        )
        ui.child.kill('SIGINT')
        // The harness's stop() would SIGKILL after 10 s; a hang shows as a timeout here.
        expect(await exited).toEqual({ code: 0, signal: null })
        await page.context().close()
      } finally {
        await ui.stop()
      }
    }
  } finally {
    await browser.close()
  }
})
