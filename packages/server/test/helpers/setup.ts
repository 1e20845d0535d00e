// Runs before every test file (vitest.config.ts `setupFiles`): what a test started through the
// helpers is closed after it, and checked closed. A setup file runs again for each file even when
// files share a worker's modules (the unit tier), where a hook registered by a helper module on
// import would run for the first file only.
import { afterEach } from 'vitest'
import { closeStarted } from './http.js'
import { destroyConnections } from './raw-connection.js'

afterEach(closeStarted)
afterEach(destroyConnections)
