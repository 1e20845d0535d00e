// Renders the rows as the aligned text table printed at the end of a run, and as the Markdown
// table written next to latest.json for the README.

/** @param {number} value @param {string} unit */
export function formatValue(value, unit) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—'
  if (unit === 'req/s' || unit === 'tasks/s') return `${Math.round(value).toLocaleString('en-US')} ${unit}`
  if (unit === 'ms') {
    const digits = value < 10 ? 2 : value < 100 ? 1 : 0
    return `${value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ms`
  }
  return `${value.toFixed(1)} ${unit}`
}

function formatRatio(value) {
  return value === null || !Number.isFinite(value) ? '—' : value.toFixed(2)
}

/** @param {import('./rows.js').Row} row */
function cells(row) {
  const spread = row.ratioSpread
    ? `${formatRatio(row.ratioSpread.min)}–${formatRatio(row.ratioSpread.max)}`
    : '—'
  const met = row.error ? 'ERROR' : row.met === null ? '—' : row.met ? 'yes' : 'NO'
  return [
    row.name,
    row.anchor?.name ?? '—',
    formatValue(row.kit.median, row.unit),
    row.anchor ? formatValue(row.anchor.median, row.unit) : '—',
    formatRatio(row.ratio),
    spread,
    String(row.runs),
    row.target ? `${row.target.op} ${row.target.value.toFixed(2)}` : '—',
    met,
    row.error ? `error: ${row.error}` : (row.note ?? ''),
  ]
}

const headers = [
  'measurement',
  'anchor',
  'mcp-kit',
  'anchor value',
  'ratio',
  'ratio min–max',
  'runs',
  'target',
  'met',
  'note',
]

/** @param {import('./rows.js').Row[]} rows */
export function renderText(rows) {
  const table = [headers, ...rows.map(cells)]
  const widths = headers.map((_, column) => Math.max(...table.map((line) => line[column].length)))
  const numeric = new Set([2, 3, 4, 5, 6])
  const render = (line) =>
    line
      .map((cell, column) =>
        column === line.length - 1
          ? cell
          : numeric.has(column)
            ? cell.padStart(widths[column])
            : cell.padEnd(widths[column]),
      )
      .join('  ')
      .trimEnd()
  return [
    render(table[0]),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...table.slice(1).map(render),
  ].join('\n')
}

/** @param {import('./rows.js').Row[]} rows */
export function renderMarkdown(rows) {
  const escapePipes = (cell) => cell.replaceAll('|', '\\|')
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map((_, column) => ([2, 3, 4, 5, 6].includes(column) ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${cells(row).map(escapePipes).join(' | ')} |`),
  ].join('\n')
}
