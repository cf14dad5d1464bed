// Host names of the host syntax: RFC 1123 labels, lower-cased, a trailing dot dropped.
import { fmt, refuse, type HostEntryResult } from './common'

/** One host name (www.example.com). */
export function hostnameEntry(text: string): HostEntryResult {
  const name = text.endsWith('.') && !text.endsWith('..') ? text.slice(0, -1) : text
  if (name.length > 253) {
    return refuse(`A host name has at most 253 characters; this one has ${fmt(name.length)}.`)
  }
  const bad = /[^A-Za-z0-9.-]/.exec(name)
  if (bad) {
    return refuse(
      `"${bad[0]}" is not allowed in a host name (letters, digits, hyphens and dots only).`,
    )
  }
  const labels = name.split('.')
  if (labels.some((l) => l === '')) {
    return refuse(`"${text}" has an empty label (a dot at the start or two dots in a row).`)
  }
  for (const label of labels) {
    if (label.length > 63) {
      return refuse(
        `The label "${label.slice(0, 20)}…" is ${label.length} characters long; at most 63.`,
      )
    }
    if (label.startsWith('-') || label.endsWith('-')) {
      return refuse(`The label "${label}" starts or ends with a hyphen.`)
    }
  }
  const top = labels[labels.length - 1]
  if (/^\d+$/.test(top)) {
    return refuse(
      `"${text}" is neither an IPv4 address nor a host name (its last label is a number).`,
    )
  }
  const normalized = name.toLowerCase()
  return {
    ok: true,
    kind: 'hostname',
    normalized,
    count: 1,
    first: normalized,
    last: normalized,
  }
}
