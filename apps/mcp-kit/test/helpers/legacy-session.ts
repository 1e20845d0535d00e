// A 2025-11-25 session over raw HTTP, for the scale-out tests: initialize, then
// notifications/initialized; resolves to the headers its later requests carry.

export async function openLegacySession(
  url: string,
  capabilities: Record<string, unknown> = {},
): Promise<Record<string, string>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities,
        clientInfo: { name: 'scale-out', version: '1' },
      },
    }),
  })
  const text = await response.text()
  const sessionId = response.headers.get('mcp-session-id')
  if (response.status !== 200 || sessionId === null)
    throw new Error(`initialize answered ${response.status}: ${text.slice(0, 200)}`)
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }
  const initialized = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  })
  await initialized.text()
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`)
  return headers
}
