import { logoDataUrl, MAX_LOGO_BYTES } from '@contract/catalog/white-label'

/** What an image data URL holds, for people: "PNG image, 3.2 kB". */
export interface ImageFacts {
  /** The URL itself, safe to use as an <img> source. */
  src: string
  kind: string
  bytes: number
}

/**
 * A service value that may be shown as an image: only a base64 `data:` URL of a PNG, JPEG, GIF or
 * WebP image of at most 256 KiB (the catalog's logo schema, the same check main and the service
 * apply), never SVG or any other scheme; null for anything else. The page's CSP allows `data:`
 * images and nothing from elsewhere (docs/security.md).
 */
export function imageDataUrl(value: unknown): ImageFacts | null {
  if (typeof value !== 'string' || !logoDataUrl.safeParse(value).success) return null
  const [head, b64] = value.split(',', 2)
  const kind = head.slice('data:image/'.length, head.indexOf(';')).toUpperCase()
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0
  const bytes = Math.floor((b64.length * 3) / 4) - padding
  return bytes <= MAX_LOGO_BYTES ? { src: value, kind, bytes } : null
}
