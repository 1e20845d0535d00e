// The pieces of warm sessions on their own: durations as users write them, the daemon's frames
// (whatever way the bytes arrive), what makes two launches the same server, and the call slots
// that keep a shared server to the calls its users allow.

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDuration } from '../../src/base/duration.js'
import { CallSlots } from '../../src/warm/call-slots.js'
import { createFrameReader, encodeFrame } from '../../src/warm/frames.js'
import { launchKey } from '../../src/warm/launch-key.js'

describe('parseDuration', () => {
  it('reads units and plain seconds', () => {
    expect(parseDuration('60s')).toBe(60_000)
    expect(parseDuration('10m')).toBe(600_000)
    expect(parseDuration('1.5h')).toBe(5_400_000)
    expect(parseDuration('250ms')).toBe(250)
    expect(parseDuration('1d')).toBe(86_400_000)
    expect(parseDuration('30')).toBe(30_000)
    expect(parseDuration(45)).toBe(45_000)
    expect(parseDuration('0')).toBe(0)
    expect(parseDuration(' 2 M ')).toBe(120_000)
  })

  it('refuses what is not a duration, and what a timer cannot wait for', () => {
    for (const text of ['', 's', 'soon', '-1s', '1w', '1e3', '10 minutes', '1s1m', 'NaN'])
      expect(parseDuration(text)).toBeUndefined()
    expect(parseDuration(-1)).toBeUndefined()
    expect(parseDuration(Number.POSITIVE_INFINITY)).toBeUndefined()
    expect(parseDuration('30d')).toBeUndefined()
  })

  it('agrees with its units for any whole number', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 }),
        fc.constantFrom(['s', 1000], ['m', 60_000], ['ms', 1]),
        (n, [unit, factor]) => {
          expect(parseDuration(`${n}${unit}`)).toBe(n * (factor as number))
        },
      ),
    )
  })
})

describe('frames', () => {
  it('come out as they went in, however the bytes are split', () => {
    const frame = fc.record({
      type: fc.constantFrom('H', 'i', 'I', 's', 'o', 'e', 'r', 'x', 'j', 'v'),
      payload: fc.uint8Array({ maxLength: 300 }),
    })
    fc.assert(
      fc.property(
        fc.array(frame, { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 50 })),
        (frames, cuts) => {
          const bytes = Buffer.concat(
            frames.map(({ type, payload }) => encodeFrame(type, Buffer.from(payload))),
          )
          const received: { type: string; payload: number[] }[] = []
          const read = createFrameReader((type, payload) => received.push({ type, payload: [...payload] }))
          let offset = 0
          for (const cut of cuts) {
            read(bytes.subarray(offset, offset + cut))
            offset += cut
          }
          read(bytes.subarray(offset))
          expect(received).toEqual(frames.map(({ type, payload }) => ({ type, payload: [...payload] })))
        },
      ),
    )
  })

  it('refuse a frame larger than allowed', () => {
    const header = Buffer.from([0x6f, 0xff, 0xff, 0xff, 0xff])
    expect(() => createFrameReader(() => {})(header)).toThrow(/larger than allowed/)
  })
})

describe('launchKey', () => {
  const stdio = { transport: 'stdio' as const, command: 'node', args: ['server.js'] }
  const context = {
    cwd: '/work',
    env: { PATH: '/usr/bin', HOME: '/home/me', SECRET: 's3cret' },
    toolFilter: null,
  }

  it('is the same for the same launch, and changes with anything that shapes the server', () => {
    const key = launchKey(stdio, {}, context)
    expect(launchKey({ ...stdio }, {}, { ...context })).toBe(key)
    expect(launchKey(stdio, { env: { A: '1' } }, context)).not.toBe(key)
    expect(launchKey(stdio, { env: { A: '1' } }, context)).not.toBe(
      launchKey(stdio, { env: { A: '2' } }, context),
    )
    expect(launchKey({ ...stdio, env: { A: '1' } }, {}, context)).toBe(
      launchKey(stdio, { env: { A: '1' } }, context),
    )
    expect(launchKey(stdio, {}, { ...context, env: { ...context.env, PATH: '/bin' } })).not.toBe(key)
    expect(launchKey(stdio, {}, { ...context, cwd: '/elsewhere' })).not.toBe(key)
    expect(launchKey({ ...stdio, args: ['server.js', '--x'] }, {}, context)).not.toBe(key)
    expect(launchKey(stdio, { protocol: '2025-11-25' }, context)).not.toBe(key)
    expect(launchKey(stdio, {}, { ...context, toolFilter: ['echo'] })).not.toBe(key)
    // A variable the server does not get (not inherited, not passed) does not matter...
    expect(launchKey(stdio, {}, { ...context, env: { ...context.env, SECRET: 'other' } })).toBe(key)
    // ...unless it is passed.
    expect(launchKey(stdio, { passEnv: ['SECRET'] }, context)).not.toBe(
      launchKey(stdio, { passEnv: ['SECRET'] }, { ...context, env: { ...context.env, SECRET: 'other' } }),
    )
  })

  it('for HTTP: the URL, header values (any case), bearer and OAuth identity', () => {
    const http = { transport: 'http' as const, url: 'https://example.com/mcp' }
    const key = launchKey(http, {}, context)
    expect(launchKey(http, { headers: { Authorization: 'Bearer a' } }, context)).not.toBe(
      launchKey(http, { headers: { Authorization: 'Bearer b' } }, context),
    )
    expect(launchKey(http, { headers: { authorization: 'Bearer a' } }, context)).toBe(
      launchKey(http, { headers: { Authorization: 'Bearer a' } }, context),
    )
    expect(launchKey({ ...http, url: 'https://example.com/other' }, {}, context)).not.toBe(key)
    const oauth = { store: undefined as never }
    expect(launchKey(http, { oauth: { ...oauth, clientId: 'a' } }, context)).not.toBe(
      launchKey(http, { oauth: { ...oauth, clientId: 'b' } }, context),
    )
    expect(launchKey(http, { oauth }, context)).not.toBe(
      launchKey(http, { oauth }, { ...context, env: { ...context.env, HOME: '/home/other' } }),
    )
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(key).not.toContain('s3cret')
  })
})

describe('CallSlots', () => {
  const never = new AbortController().signal

  function gate() {
    let open: () => void = () => {}
    const opened = new Promise<void>((resolve) => {
      open = resolve
    })
    return { open, opened }
  }

  it("gives each command's calls only as many slots as that command allows, counting every call", async () => {
    const slots = new CallSlots()
    const started: string[] = []
    const first = gate()
    const one = slots.scheduler(1)
    const four = slots.scheduler(4)
    const a = one(async () => {
      started.push('a')
      await first.opened
    }, never)
    const b = one(async () => {
      started.push('b')
    }, never)
    const c = four(async () => {
      started.push('c')
    }, never)
    await Promise.resolve()
    // b waits (its command allows one call at a time and a runs); c, which arrived after b, waits
    // its turn although its command allows four.
    expect(started).toEqual(['a'])
    first.open()
    await Promise.all([a, b, c])
    expect(started).toEqual(['a', 'b', 'c'])
    expect(slots.running).toBe(0)
    // Alone, a command with four slots runs four calls at once.
    const second = gate()
    const running = [1, 2, 3, 4, 5].map((n) =>
      four(async () => {
        started.push(`d${n}`)
        await second.opened
      }, never),
    )
    await Promise.resolve()
    expect(started.slice(3)).toEqual(['d1', 'd2', 'd3', 'd4'])
    second.open()
    await Promise.all(running)
    expect(started.slice(3)).toEqual(['d1', 'd2', 'd3', 'd4', 'd5'])
  })

  it('a waiting call gives up when its command does, and frees nothing it did not take', async () => {
    const slots = new CallSlots()
    const hold = gate()
    const one = slots.scheduler(1)
    const running = one(() => hold.opened, never)
    const controller = new AbortController()
    const waiting = one(async () => 'never', controller.signal)
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' })
    expect(slots.running).toBe(1)
    hold.open()
    await running
    expect(slots.running).toBe(0)
  })

  it('a failed call frees its slot', async () => {
    const slots = new CallSlots()
    const one = slots.scheduler(1)
    await expect(one(() => Promise.reject(new Error('boom')), never)).rejects.toThrow('boom')
    expect(await one(async () => 'next', never)).toBe('next')
  })
})
