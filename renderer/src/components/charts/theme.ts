import { computed, onBeforeUnmount, onMounted, ref } from 'vue'

/** A CSS variable of the page's theme, or `fallback` where none is set (tests, before mount). */
export function cssVar(name: string, fallback: string): string {
  if (typeof document === 'undefined') return fallback
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  return value || fallback
}

const CSS_VAR = /^var\((--[\w-]+)(?:,\s*([^)]+))?\)$/

/**
 * A colour a chart can draw with: `var(--name, fallback)` resolved against the page's theme now
 * (SVG attributes take no CSS variables), anything else as it is.
 */
export function paint(color: string): string {
  const m = CSS_VAR.exec(color.trim())
  return m ? cssVar(m[1], m[2]?.trim() ?? color) : color
}

/**
 * The colours a chart draws its text and grid lines in, from the theme's CSS variables; worked
 * out again when <html>'s class changes (the theme toggle sets `dark` there).
 */
export function useChartTheme() {
  const tick = ref(0)
  let observer: MutationObserver | null = null
  onMounted(() => {
    if (typeof MutationObserver !== 'function') return
    observer = new MutationObserver(() => tick.value++)
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
  })
  onBeforeUnmount(() => observer?.disconnect())
  return computed(() => {
    void tick.value
    return {
      text: cssVar('--el-text-color-regular', '#606266'),
      line: cssVar('--el-border-color-lighter', '#ebeef5'),
    }
  })
}
