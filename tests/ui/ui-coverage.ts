// Which operations of the catalog a screen reaches, per group and release: the registry's
// declarations (the generic screens render a control for every slot they name) plus the
// operation ids the custom views, stores and composables call, read from their source.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CHANNEL_NAMES } from '@contract/channel-names'
import { GROUP_IDS, operations, type GroupId } from '@contract/catalog'
import { RELEASES, type Release } from '@contract/releases'
import { MAIN_ONLY_OPERATIONS } from '@contract/sessions'
import { RESOURCES, resourceByKey, type ResourceDef } from '@/resources'

const ROOT = join(__dirname, '..', '..')

/** Every operation id a registry entry names, by the slot that reaches it. */
export function registryOperations(r: ResourceDef): string[] {
  const ids: (string | undefined)[] = [
    ...Object.values(r.ops),
    ...(r.rowActions ?? []).map((a) => a.op),
    ...(r.toolbar ?? []).map((a) => a.op),
    r.createVia?.op,
    r.exportCsv,
    ...(r.panels ?? []).map((p) => p.op),
    ...(r.views ?? []).map((v) => v.op),
    ...(r.related ?? []).flatMap((x) => [x.op ?? resourceByKey(x.resource)?.ops.list, x.show?.op]),
  ]
  return ids.filter((id): id is string => typeof id === 'string')
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'test' || e.name === 'entries' ? [] : sourceFiles(path)
    return /\.(ts|vue)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [path] : []
  })
}

/** Operation ids written as literals in the renderer's own views, stores and composables. */
export function viewOperations(): Set<string> {
  const known = new Set(operations.map((o) => o.id))
  const found = new Set<string>()
  for (const file of sourceFiles(join(ROOT, 'renderer', 'src')))
    for (const m of readFileSync(file, 'utf8').matchAll(/['"`]([a-z_]+\.[a-z_]+)['"`]/g))
      if (known.has(m[1])) found.add(m[1])
  return found
}

/**
 * Operations main's own flows call when a screen starts them: sign-in, second factor, links and
 * impersonation (accounts), and generate, poll, download and verify (exports and files, from the
 * tray). Ids are read from those folders' sources, as written (`auth.sign_in`) or built from a
 * kind (`${group}.generate` over reports and advanced_reports).
 */
export function mainFlowOperations(): Set<string> {
  const known = new Set(operations.map((o) => o.id))
  const found = new Set<string>()
  for (const folder of ['accounts', 'files', 'exports'])
    for (const file of sourceFiles(join(ROOT, 'electron', 'core', folder))) {
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(/['"`]([a-z_]+\.[a-z_]+)['"`]/g))
        if (known.has(m[1])) found.add(m[1])
      for (const m of text.matchAll(/\$\{[^}]+\}\.([a-z_]+)`/g))
        for (const group of ['reports', 'advanced_reports'])
          if (known.has(`${group}.${m[1]}`)) found.add(`${group}.${m[1]}`)
    }
  return found
}

/**
 * Operations main runs for a screen's control through a channel of its own rather than api.call:
 * the file operations of the exports tray (generate, download, verify). Each names the channel
 * the renderer calls to start it.
 */
export const MAIN_FLOW_CHANNELS: Readonly<Record<string, string>> = {
  'reports.generate': 'exports.generate',
  'reports.download': 'exports.download',
  'reports.verify_hash': 'library.reverify',
  'advanced_reports.generate': 'exports.generate',
  'advanced_reports.download': 'exports.download',
}

/** Request channel names written as literals in the renderer's sources (the bridge's callers). */
export function rendererChannels(): Set<string> {
  const known = new Set<string>(CHANNEL_NAMES)
  const found = new Set<string>()
  for (const file of sourceFiles(join(ROOT, 'renderer', 'src')))
    for (const m of readFileSync(file, 'utf8').matchAll(/['"`]([a-zA-Z]+(?:\.[a-zA-Z]+)+)['"`]/g))
      if (known.has(m[1])) found.add(m[1])
  return found
}

/** Operations a screen's own control calls: the registry's slots and the views' literals. */
export function viewReachedOperations(): Set<string> {
  return new Set([...RESOURCES.flatMap(registryOperations), ...viewOperations()])
}

/**
 * Operations of `release` that neither a screen calls nor main runs on a screen's behalf (the
 * main-only credential operations and the exports tray's file flows): empty when coverage is whole.
 */
export function unreachedOperations(release: Release): string[] {
  const views = viewReachedOperations()
  return operations
    .filter((o) => o.releases.includes(release))
    .map((o) => o.id)
    .filter((id) => !views.has(id) && !MAIN_ONLY_OPERATIONS.has(id) && !(id in MAIN_FLOW_CHANNELS))
}

/** What the UI reaches: every operation a screen calls, and what main runs on its behalf. */
export function reachedOperations(): Set<string> {
  return new Set([
    ...viewReachedOperations(),
    ...[...MAIN_ONLY_OPERATIONS].filter((id) => mainFlowOperations().has(id)),
    ...Object.keys(MAIN_FLOW_CHANNELS).filter((id) => mainFlowOperations().has(id)),
  ])
}

/** Per release: operations in it and how many of them a screen reaches. */
export function coverageByRelease(
  reached: Set<string>,
): Record<Release, { total: number; reached: number }> {
  const out = {} as Record<Release, { total: number; reached: number }>
  for (const release of RELEASES) {
    const ops = operations.filter((o) => o.releases.includes(release))
    out[release] = { total: ops.length, reached: ops.filter((o) => reached.has(o.id)).length }
  }
  return out
}

/** The whole report as markdown. */
export function renderCoverage(reached: Set<string>): string {
  const by = coverageByRelease(reached)
  const lines = [
    '# UI coverage',
    '',
    'Generated by `tests/ui/ui-coverage.test.ts` from the catalog, the resource registry and the',
    'renderer’s sources; the test fails unless every operation of every release is reached.',
    '',
    '| release | operations | reached by a screen |',
    '|---|---|---|',
    ...RELEASES.map((r) => `| ${r} | ${by[r].total} | ${by[r].reached} |`),
    '',
    `Operations reached (latest): ${by.latest.reached} of ${by.latest.total}.`,
    '',
    '## By group',
    '',
  ]
  lines.push(
    '## Run by main on a screen’s behalf',
    '',
    'Never sent through `api.call` from a view: the credential operations (`api.call` refuses',
    'them; the sign-in, link, token and impersonation dialogs start them through their own',
    'channels) and the exports tray’s file flows.',
    '',
    ...[...MAIN_ONLY_OPERATIONS].sort().map((id) => `- \`${id}\` — credentials, main only`),
    ...Object.entries(MAIN_FLOW_CHANNELS).map(
      ([id, channel]) => `- \`${id}\` — started by the \`${channel}\` channel`,
    ),
    '',
  )
  for (const group of GROUP_IDS as readonly GroupId[]) {
    const ops = operations.filter((o) => o.group === group)
    const missing = ops.filter((o) => !reached.has(o.id))
    const releases = RELEASES.filter((r) => ops.some((o) => o.releases.includes(r)))
    lines.push(`### ${group} — ${ops.length - missing.length} of ${ops.length}`, '')
    lines.push(`Releases: ${releases.join(', ')}.`, '')
    lines.push(
      missing.length
        ? `No screen yet: ${missing.map((o) => `\`${o.id}\``).join(', ')}.`
        : 'Every operation has a screen.',
      '',
    )
  }
  return lines.join('\n')
}

/** The per-release counts a report records, read back from its table. */
export function recordedCoverage(text: string): Partial<Record<Release, number>> {
  const out: Partial<Record<Release, number>> = {}
  for (const m of text.matchAll(/^\| ([\w.-]+) \| (\d+) \| (\d+) \|$/gm))
    if ((RELEASES as readonly string[]).includes(m[1])) out[m[1] as Release] = Number(m[3])
  return out
}
