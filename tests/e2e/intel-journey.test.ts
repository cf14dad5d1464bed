// Issue 37 §1: on the demo, Update now fetches the sandbox's own KEV feed (never the internet) and
// the Exploit intelligence dialog names the edition now in use, with its address as the source.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { closeSwitcher, useDemoJourney } from './harness'

const WAIT = { timeout: 30_000 }

describe('exploit intelligence on the demo (issue 37 §1)', () => {
  const j = useDemoJourney()
  let page: Page
  beforeAll(() => void ({ page } = j))

  it('updates KEV from the demo service’s own feed and names the edition in use', async () => {
    await closeSwitcher(page)
    await page.getByTestId('intel-button').click()
    const address = page.getByTestId('intel-address-kev')
    await address.waitFor(WAIT)
    const shown = (await address.textContent()) ?? ''
    expect(shown).toMatch(/From http:\/\/127\.0\.0\.1:\d+\/feeds\/kev\.json/)
    expect(shown).toContain('the demo service')
    await page.getByTestId('intel-update-kev').click()
    const done = page.getByTestId('intel-updated-kev')
    await done.waitFor(WAIT)
    const edition = /CISA KEV (\d{4}\.\d{2}\.\d{2}) \(released \d{4}-\d{2}-\d{2}\) is now in use/
    const said = (await done.textContent()) ?? ''
    expect(said).toMatch(edition)
    const pack = page.getByTestId('intel-feed-kev').getByTestId('intel-pack').first()
    await pack.getByText(edition.exec(said)![1]!).waitFor(WAIT)
    expect(await pack.textContent()).toContain('/feeds/kev.json')
    expect(j.problems).toEqual([])
  })
})
