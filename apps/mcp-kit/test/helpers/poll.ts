// Waiting for a state with a deadline instead of sleeping: `check` runs until it returns a
// value; past the deadline the error names what was awaited and the last state seen.

export async function pollUntil<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs?: number; intervalMs?: number; lastSeen?: () => string } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) {
      const seen = options.lastSeen?.()
      throw new Error(`${what}: not within ${timeoutMs / 1000} s${seen ? ` (last seen: ${seen})` : ''}`)
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 50))
  }
}
