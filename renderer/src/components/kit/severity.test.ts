import { describe, expect, it } from 'vitest'
import { SEVERITIES, SEVERITY_COLORS, SEVERITY_PALETTE, SEVERITY_TEXT } from './severity'
import { paint } from '@/components/charts/theme'

/** WCAG 2 relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2 contrast ratio of two colours. */
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

/** Hue in degrees of #rrggbb. */
function hue(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
  const max = Math.max(r, g, b)
  const d = max - Math.min(r, g, b)
  if (d === 0) return 0
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return (h * 60 + 360) % 360
}

// Element Plus' backgrounds: page, panels and tables, cards and dialogs.
const BACKGROUNDS = {
  light: ['#f2f3f5', '#ffffff'],
  dark: ['#0a0a0a', '#141414', '#1d1e1f'],
} as const

describe('the severities’ colours', () => {
  it.each(['light', 'dark'] as const)(
    'read at WCAG AA (4.5:1) on every %s background and under a tag’s text',
    (theme) => {
      for (const s of SEVERITIES) {
        const colour = SEVERITY_PALETTE[theme][s]
        for (const bg of BACKGROUNDS[theme])
          expect(contrast(colour, bg), `${s} on ${bg}`).toBeGreaterThanOrEqual(4.5)
        expect(contrast(colour, SEVERITY_TEXT[theme]), `text on ${s}`).toBeGreaterThanOrEqual(4.5)
      }
    },
  )

  it.each(['light', 'dark'] as const)('tell critical from high by hue in the %s theme', (theme) => {
    const { critical, high } = SEVERITY_PALETTE[theme]
    const apart = Math.abs(hue(critical) - hue(high))
    expect(Math.min(apart, 360 - apart)).toBeGreaterThanOrEqual(60)
  })

  it('are resolved against the page when a chart draws them', () => {
    document.documentElement.style.setProperty('--sd-severity-high', '#f87171')
    expect(paint(SEVERITY_COLORS.high)).toBe('#f87171')
    document.documentElement.style.removeProperty('--sd-severity-high')
    expect(paint(SEVERITY_COLORS.high)).toBe(SEVERITY_PALETTE.light.high)
    expect(paint('#16a34a')).toBe('#16a34a')
  })
})
