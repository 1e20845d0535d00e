// Byte sizes on the command line: `4MiB`, `512k`, `1048576` (--body-limit, --max-message-size).

const byteUnits: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
}

/** `4MiB`, `512k`, `1048576` → bytes (binary units: `MB` means MiB here, as for most servers). */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text)
  if (match === null) return undefined
  const unit = byteUnits[(match[2] ?? '').toLowerCase()]
  if (unit === undefined) return undefined
  const bytes = Math.floor(Number(match[1]) * unit)
  return bytes > 0 ? bytes : undefined
}
