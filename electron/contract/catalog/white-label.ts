import { z } from 'zod'
import { SINCE_5_3 } from '../releases'
import { dateTime, single } from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** Largest logo accepted, in decoded bytes (decided here): 256 KiB. */
export const MAX_LOGO_BYTES = 256 * 1024

const LOGO_PREFIX = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]+={0,2})$/

/** Decoded size of a base64 payload, in bytes. */
function base64Size(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0
  return Math.floor((b64.length * 3) / 4) - padding
}

/** A logo as a data URL (PNG, JPEG, GIF or WebP, base64) of at most 256 KiB (decided here). */
export const logoDataUrl = z
  .string()
  .max(Math.ceil((MAX_LOGO_BYTES * 4) / 3) + 40, 'must be at most 256 KiB')
  .regex(LOGO_PREFIX, 'must be a base64 data URL of a PNG, JPEG, GIF or WebP image')
  .refine(
    (s) => base64Size(s.slice(s.indexOf(',') + 1)) <= MAX_LOGO_BYTES,
    'must be at most 256 KiB',
  )

/** A colour as #rrggbb. */
export const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')

/** A host name for a custom portal domain, e.g. scans.example.com. */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be a domain name such as scans.example.com',
  )

/** White label attributes (decided here): the branding of the caller's organization. */
export const whiteLabelAttributes = z.looseObject({
  company_name: z.string().nullish(),
  primary_color: z.string().nullish(),
  logo: z.string().nullish(),
  support_email: z.string().nullish(),
  custom_domain: z.string().nullish(),
  updated_at: dateTime.nullish(),
})

/** Body of the white label update (decided here): any subset; null clears logo or domain. */
export const whiteLabelUpdateBody = z.strictObject({
  company_name: z.string().trim().min(1, 'is required').max(120).optional(),
  primary_color: hexColour.optional(),
  logo: logoDataUrl.nullable().optional(),
  support_email: z.email('must be an email address').max(254).optional(),
  custom_domain: domainName.nullable().optional(),
})

const g = 'white_label' as const

/** White label settings of the caller's organization: show and update. */
export const whiteLabelOperations = defineGroup([
  defineOperation({
    id: 'white_label.show',
    group: g,
    method: 'GET',
    path: '/v2/white_label',
    response: single(whiteLabelAttributes),
    releases: SINCE_5_3,
    summary: "Show the organization's white label settings",
    source: 'decided',
    sandbox: { kind: 'custom' },
  }),
  defineOperation({
    id: 'white_label.update',
    group: g,
    method: 'PUT',
    path: '/v2/white_label',
    body: whiteLabelUpdateBody,
    response: single(whiteLabelAttributes),
    releases: SINCE_5_3,
    summary: "Update the organization's white label settings",
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { body: { company_name: 'Acme Payments Security', primary_color: '#0b5cad' } },
  }),
])
