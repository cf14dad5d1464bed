import { h, inject, type VNode } from 'vue'
import { routerKey, START_LOCATION, type RouteLocationRaw, type Router } from 'vue-router'
import type { Reference } from '@/composables/references'
import { UNNAMED_WORDS, type RecordName } from '@/data/useNames'
import { detailRoute, type ResourceDef } from '@/resources'
import { useReleaseGuard } from '@/stores/scope'
import './references.css'

// References to other records as plain elements: a table draws one per row in its own render
// (a component each, with a router link inside, was a third of a 100-row page's script, issue 22
// §1); RecordRef and ReferenceValue draw the same for the other screens. Never HTML.

/** A record's page, where it has one the release offers and the record is not known missing. */
function recordRoute(
  resource: ResourceDef | null | undefined,
  id: string,
  name: RecordName,
  has: (opId: string) => boolean,
): RouteLocationRaw | null {
  if (!resource?.ops.show || !has(resource.ops.show)) return null
  if (name.state === 'unnamed' && (name.reason === 'missing' || name.reason === 'deleted'))
    return null
  return detailRoute(resource, id)
}

/**
 * What a reference's links need: the router (to resolve and follow; without one, as in a screen
 * shown outside the app's router, names are not linked) and the release's operations.
 */
export interface LinkContext {
  router: Router | undefined
  has: (opId: string) => boolean
}

/** The links' context of the component being set up (its router, if any, and its release). */
export function useLinks(): LinkContext {
  return { router: inject(routerKey, undefined), has: useReleaseGuard().has }
}

/** A link followed by the router, as RouterLink does (a modified or other-button click is left). */
function link(
  router: Router,
  to: RouteLocationRaw,
  attrs: Record<string, string | undefined>,
  text: string,
): VNode {
  return h(
    'a',
    {
      ...attrs,
      // resolved against the start location, not the current one: reading the current route
      // here made every table with references draw all its rows again on each move of the
      // address (a sort, a page, a filter); a record's page does not depend on where one is
      href: router.resolve(to, START_LOCATION).href,
      onClick: (e: MouseEvent) => {
        const modified = e.metaKey || e.altKey || e.ctrlKey || e.shiftKey
        if (e.defaultPrevented || e.button !== 0 || modified) return
        e.preventDefault()
        void router.push(to)
      },
    },
    text,
  )
}

/**
 * One record: its name, linked to its page where it has one; while the name is read, its id
 * (muted); where no name can be had, its id and why, in words. A linked name is one element (a
 * table draws one a row).
 */
export function recordRefNode(
  ctx: LinkContext,
  resource: ResourceDef | null | undefined,
  id: string,
  name: RecordName,
): VNode {
  const to = recordRoute(resource, id, name, ctx.has)
  const text = name.state === 'named' ? name.name : id
  const note = name.state === 'unnamed' ? UNNAMED_WORDS[name.reason] : null
  const loading = name.state === 'loading'
  const own = {
    class: loading ? 'record-ref record-ref--loading' : 'record-ref',
    'data-name-state': name.state,
    'data-record-id': id,
    'aria-busy': loading ? 'true' : undefined,
  }
  const router = to ? ctx.router : undefined
  if (router && to && !note)
    return link(router, to, { ...own, class: `${own.class} record-ref__link`, title: id }, text)
  return h('span', own, [
    router && to ? link(router, to, { class: 'record-ref__link', title: id }, text) : text,
    note ? h('span', { class: 'record-ref__note' }, ` (${note})`) : null,
  ])
}

const UNKNOWN: RecordName = { state: 'unnamed', reason: 'failed' }

/**
 * An attribute that refers to other records: each one by name, or, when it refers to none, that
 * in words ("No scanner"), never a dash that could mean "not loaded". One record is its reference
 * alone; several, or none, are held in a `reference-value`.
 */
export function referenceNode(
  ctx: LinkContext,
  reference: Reference,
  nameOf: (kind: string, id: string) => RecordName,
): VNode {
  const r = reference
  const nameFor = (id: string): RecordName =>
    r.given !== undefined
      ? { state: 'named', name: r.given }
      : r.resource
        ? nameOf(r.resource.key, id)
        : UNKNOWN
  const [only] = r.ids
  if (r.ids.length === 1 && only !== undefined)
    return recordRefNode(ctx, r.resource, only, nameFor(only))
  const parts: (VNode | string)[] = []
  r.ids.forEach((id, i) => {
    if (i) parts.push(', ')
    parts.push(recordRefNode(ctx, r.resource, id, nameFor(id)))
  })
  if (!r.ids.length)
    parts.push(
      h(
        'span',
        { class: 'reference-value__none', 'data-name-state': 'none' },
        r.resource ? `No ${r.resource.noun}` : 'None',
      ),
    )
  return h('span', { class: 'reference-value', 'data-testid': 'reference' }, parts)
}
