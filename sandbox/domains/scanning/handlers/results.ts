// Scan dashboards and per-scan results, hosts and vulnerability widgets, prompt and chat history.
import type { Handlers } from '../../../types'
import { isOpen } from '../evolution'
import { prompt } from '../prompt'
import { countSeverities } from '../results'
import { pciWidget, topByCvss, totalWidget, vulnerabilitiesFor } from '../widgets'
import { insertRow, listOf, many, one, orgOf, visible, visibleRows } from '../util'

const byTimeDesc = (field: string) => (a: { attributes: Record<string, unknown> }, b: typeof a) =>
  String(b.attributes[field] ?? '').localeCompare(String(a.attributes[field] ?? ''))

/** Handlers of the scan dashboards, per-scan results, hosts and vulnerabilities. */
export const resultHandlers: Handlers = {
  'scans.upcoming': (req, ctx) => {
    const limit = req.query.limit ?? Number.POSITIVE_INFINITY
    const rows = visibleRows(ctx, req, 'scans')
      .filter((s) => typeof s.attributes.schedule_next_time === 'string')
      .sort(
        (a, b) =>
          String(a.attributes.schedule_next_time).localeCompare(
            String(b.attributes.schedule_next_time),
          ) || a.id.localeCompare(b.id),
      )
      .slice(0, limit)
    return {
      status: 200,
      body: {
        data: rows.map((s) => ({
          id: s.id,
          type: 'scan',
          attributes: {
            name: s.attributes.name,
            description: s.attributes.description ?? '',
            next_scheduled_at: s.attributes.schedule_next_time,
            in_timezone: s.attributes.in_timezone ?? 'UTC',
          },
        })),
      },
    }
  },

  'scans.recently_completed': (req, ctx) => {
    const limit = req.query.limit ?? 10
    const rows = visibleRows(ctx, req, 'scans')
      .filter((s) => s.attributes.status === 'completed')
      .sort(byTimeDesc('finished_at'))
      .slice(0, limit)
    return many(req, rows)
  },

  'scans.running': (req, ctx) =>
    many(
      req,
      visibleRows(ctx, req, 'scans').filter((s) =>
        ['running', 'stopping'].includes(String(s.attributes.status)),
      ),
    ),

  'scans.history': (req, ctx) => {
    visible(ctx, req, 'scans', req.path.id)
    return listOf(ctx, { ...req, query: { sort: '-started_at', ...req.query } }, 'scan_runs', {
      param: 'id',
      field: 'scan_id',
    })
  },

  'scans.hosts': (req, ctx) => {
    visible(ctx, req, 'scans', req.path.id)
    return listOf(ctx, req, 'hosts', { param: 'id', field: 'scan_id' })
  },

  'scans.vulnerabilities': (req, ctx) => {
    visible(ctx, req, 'scans', req.path.id)
    return listOf(ctx, req, 'vulnerabilities', { param: 'id', field: 'scan_id' })
  },

  'scans.vulnerability_details': (req, ctx) => {
    const scan = visible(ctx, req, 'scans', req.path.id)
    const vuln = visible(ctx, req, 'vulnerabilities', req.path.vulnerability_id)
    if (vuln.attributes.scan_id !== scan.id) {
      ctx.notFound(`vulnerability ${vuln.id} of scan ${scan.id}`)
    }
    return one(req, vuln)
  },

  'scans.statistics': (req, ctx) => {
    const scan = visible(ctx, req, 'scans', req.path.id)
    const vulns = ctx.db
      .list('vulnerabilities')
      .filter((v) => v.attributes.scan_id === scan.id && isOpen(v))
    const hosts = ctx.db.list('hosts').filter((h) => h.attributes.scan_id === scan.id)
    const runs = ctx.db.list('scan_runs').filter((r) => r.attributes.scan_id === scan.id)
    const a = scan.attributes
    const started = typeof a.started_at === 'string' ? Date.parse(a.started_at) : NaN
    const finished =
      typeof a.finished_at === 'string' ? Date.parse(a.finished_at) : ctx.now().getTime()
    return {
      status: 200,
      body: {
        data: {
          scan_id: scan.id,
          status: a.status,
          hosts_count: hosts.length,
          vulnerabilities_count: vulns.length,
          severity_counts: countSeverities(vulns),
          duration_seconds: Number.isNaN(started)
            ? null
            : Math.max(0, Math.round((finished - started) / 1000)),
          runs_count: runs.length,
          pci_compliant: vulns.every((v) => v.attributes.pci_compliant === true),
        },
      },
    }
  },

  'scans.scan_profiles': (req, ctx) =>
    listOf(ctx, { ...req, query: { ...req.query, activated: true } }, 'scan_profiles'),

  'hosts.most_vulnerable': (req, ctx) => {
    const limit = req.query.limit ?? 10
    const rows = visibleRows(ctx, req, 'hosts')
      .sort(
        (a, b) =>
          (b.attributes.risk_score as number) - (a.attributes.risk_score as number) ||
          (b.attributes.vulnerabilities_count as number) -
            (a.attributes.vulnerabilities_count as number) ||
          a.id.localeCompare(b.id),
      )
      .slice(0, limit)
    return many(req, rows)
  },

  'vulnerabilities.total_widget': (req, ctx) => ({
    status: 200,
    body: { data: totalWidget(vulnerabilitiesFor(ctx, req, req.query)) },
  }),

  'vulnerabilities.top_widget': (req, ctx) => {
    const rows = vulnerabilitiesFor(ctx, req, { scan_id: req.query.scan_id })
    return many(req, topByCvss(rows, req.query.limit ?? 10))
  },

  'vulnerabilities.pci_compliant_widget': (req, ctx) => ({
    status: 200,
    body: { data: pciWidget(vulnerabilitiesFor(ctx, req, req.query)) },
  }),

  'vulnerabilities.prompt': (req, ctx) => {
    const vuln = visible(ctx, req, 'vulnerabilities', req.path.id)
    const { question } = req.body
    const row = insertRow(ctx, 'chat_messages', orgOf(req), {
      vulnerability_id: vuln.id,
      question,
      answer: prompt(vuln, question),
      user_id: req.caller?.userId ?? null,
      created_at: ctx.now().toISOString(),
    })
    return one(req, row)
  },

  'vulnerabilities.chat_history': (req, ctx) => {
    visible(ctx, req, 'vulnerabilities', req.path.id)
    return listOf(ctx, req, 'chat_messages', { param: 'id', field: 'vulnerability_id' })
  },
}
