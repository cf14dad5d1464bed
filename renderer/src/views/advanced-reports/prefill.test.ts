import { describe, expect, it } from 'vitest'
import { advancedReportCreateBody } from '@contract/catalog/advanced-reports'
import { advancedReportForScan } from './prefill'

describe('an advanced report prefilled for a scan', () => {
  it('is a body the catalog accepts, over the scan’s targets', () => {
    const body = advancedReportForScan({ name: ' Perimeter ', target_ids: ['tgt-1', 'tgt-9'] })
    expect(body).toEqual({
      name: 'Perimeter - technical detail',
      report_type: 'technical_detail',
      sections: ['summary', 'findings', 'hosts', 'remediation'],
      filters: { target_ids: ['tgt-1', 'tgt-9'] },
    })
    expect(advancedReportCreateBody.safeParse(body).success).toBe(true)
  })

  it('shortens a long scan name to fit the name’s 200 characters and leaves out no targets', () => {
    const body = advancedReportForScan({ name: 'x'.repeat(250), target_ids: [] })
    expect(body.name).toHaveLength(200)
    expect(body.name?.endsWith(' - technical detail')).toBe(true)
    expect(body.filters).toBeUndefined()
    expect(advancedReportCreateBody.safeParse(body).success).toBe(true)
  })
})
