import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { mountScreen } from '@/test/composables'
import { byTestId, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { imageDataUrl } from '@/utils/imageDataUrl'
import WhiteLabelView from './WhiteLabelView.vue'

const fake = useFakeApp()
let unmount: (() => void) | null = null
afterEach(() => {
  unmount?.()
  unmount = null
})

// A 1×1 transparent PNG.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
const SVG = `data:image/svg+xml;base64,${btoa('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')}`

async function mountWith(logo: unknown) {
  fake.handle('api.call', () => ({
    data: {
      data: {
        id: 'wl-1',
        type: 'white_label',
        attributes: { company_name: 'Acme', primary_color: '#123456', logo },
      },
    },
    fetchedAt: '2030-01-01T00:00:00Z',
    fromCache: false,
  }))
  const wrapper = mountScreen(WhiteLabelView)
  unmount = () => wrapper.unmount()
  await flushPromises()
}

describe('images the service sends as data: URLs', () => {
  it('are shown only as PNG, JPEG, GIF or WebP in base64, with what they are', () => {
    expect(imageDataUrl(PNG)).toEqual({ src: PNG, kind: 'PNG', bytes: 68 })
    expect(imageDataUrl(SVG)).toBeNull()
    expect(imageDataUrl('javascript:alert(1)')).toBeNull()
    expect(imageDataUrl('https://example.com/logo.png')).toBeNull()
    expect(imageDataUrl('data:image/png;base64,<script>')).toBeNull()
    expect(imageDataUrl(`data:image/png;base64,${'A'.repeat(400_000)}`)).toBeNull()
    expect(imageDataUrl(null)).toBeNull()
  })
})

describe('the white label screen', () => {
  it('shows the logo as an image, in the preview too, never as its base64 text', async () => {
    await mountWith(PNG)
    const line = theTestId('white-label-logo')
    expect(line.querySelector('img')?.getAttribute('src')).toBe(PNG)
    expect(line.querySelector('img')?.getAttribute('alt')).toBe('Logo of Acme')
    expect(line.textContent).toContain('PNG image, 68 B')
    expect(theTestId('white-label-preview-logo').getAttribute('src')).toBe(PNG)
    expect(document.body.textContent).not.toContain('iVBORw0KGgo')
  })

  it('shows no image for anything else, and says why', async () => {
    await mountWith(SVG)
    expect(theTestId('white-label-logo').querySelector('img')).toBeNull()
    expect(byTestId('white-label-preview-logo')).toHaveLength(0)
    expect(theTestId('white-label-logo').textContent).toContain(
      'Not shown: not a PNG, JPEG, GIF or WebP image of at most 256 KiB.',
    )
    expect(document.querySelectorAll('img')).toHaveLength(0)
  })

  it('says when there is no logo', async () => {
    await mountWith(null)
    expect(theTestId('white-label-logo').textContent).toContain('No logo')
  })

  it('waits for the service to edit while “Work offline” is on', async () => {
    await mountWith(PNG)
    expect(theTestId<HTMLButtonElement>('white-label-edit').disabled).toBe(false)
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    expect(theTestId<HTMLButtonElement>('white-label-edit').disabled).toBe(true)
  })
})
