// Issue 36 §17: one count of requirements, said the same everywhere, the optional ones named as
// such — the filler's progress, the sections and "Answer the rest of this section In Place".
import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { byTestId, theTestId } from '@/test/dom'
import { choose, draft, mountDraft, savedDraft, text, useSaqFillerTests } from './saqFillerTestKit'

useSaqFillerTests()

/** The test draft with section 11: two required requirements and two optional ones. */
function withOptional() {
  const d = draft()
  d.template.sections.push({
    number: '11',
    title: 'Regular testing',
    requirements: [
      { number: '11.3.1', title: 'Internal scans every quarter', required: true },
      { number: '11.3.1.1', title: 'Lower-risk findings handled', required: false },
      { number: '11.3.1.2', title: 'Authenticated internal scans', required: false },
      { number: '11.3.2', title: 'External scans every quarter', required: true },
    ],
  })
  return d
}

const sectionCount = (n: string) =>
  text(
    byTestId('saq-section')
      .find((b) => text(b).startsWith(`${n}.`))!
      .querySelector('[data-testid="saq-section-count"]'),
  )

describe('the requirement count', () => {
  it('is the required requirements, with the optional ones named apart, before and after answering them', async () => {
    await mountDraft(withOptional())
    expect(text(theTestId('saq-progress-text'))).toBe(
      '0 of 5 required answered · optional 11.3.1.1, 11.3.1.2: 0 of 2 answered',
    )
    await choose('2.2.1', 'in_place')
    expect(text(theTestId('saq-progress-text'))).toContain('1 of 5 required answered')
    byTestId('saq-section')
      .find((b) => text(b).startsWith('11.'))!
      .click()
    await flushPromises()
    expect(sectionCount('11')).toBe('0/2 + 0/2 optional')
    await choose('11.3.1.1', 'in_place')
    // answering an optional one never moves the required count
    expect(text(theTestId('saq-progress-text'))).toBe(
      '1 of 5 required answered · optional 11.3.1.1, 11.3.1.2: 1 of 2 answered',
    )
    expect(sectionCount('11')).toBe('0/2 + 1/2 optional')
  })

  it('"Answer the rest of this section In Place" answers the required ones and names the optional ones it left', async () => {
    await mountDraft(withOptional())
    byTestId('saq-section')
      .find((b) => text(b).startsWith('11.'))!
      .click()
    await flushPromises()
    theTestId('saq-rest-in-place').click()
    await flushPromises()
    expect(Object.keys(savedDraft().answers).sort()).toEqual(['11.3.1', '11.3.2'])
    expect(text(document.body)).toContain(
      '2 requirements answered In Place. The optional 11.3.1.1, 11.3.1.2 are left for you to answer or leave.',
    )
    expect(sectionCount('11')).toBe('2/2 + 0/2 optional')
    expect(text(theTestId('saq-progress-text'))).toContain('2 of 5 required answered')
  })
})
