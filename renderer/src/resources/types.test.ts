import { describe, expectTypeOf, it } from 'vitest'
import {
  defineResource,
  type FilterOf,
  type ResourceDef,
  type ResourceKey,
  type RowAttributes,
} from '.'

// What the registry's types refuse: each `@ts-expect-error` fails the typecheck if the line
// below it compiles, so a typo in an entry's strings is a compile error, not a blank screen.

/** The words of an entry that are not checked here. */
const words = (noun: string) => ({ noun, plural: `${noun}s` })

/** A targets entry with `extra` on top (checked against targets.list). */
const targets = (extra: Partial<ResourceDef<'targets.list'>>): ResourceDef<'targets.list'> => ({
  key: 'targets',
  group: 'targets',
  noun: 'target',
  plural: 'targets',
  titleField: 'name',
  ops: { list: 'targets.list' },
  columns: [{ key: 'name' }],
  ...extra,
})

describe('the registry’s types', () => {
  it('take filters by the names of the list’s query only', () => {
    expectTypeOf<FilterOf<'targets.list'>>().toEqualTypeOf<'ids' | 'tag'>()
    targets({ filters: ['tag', 'ids'] })
    // @ts-expect-error a typo of `tag`
    targets({ filters: ['tags'] })
    // @ts-expect-error paging and sort are not filters
    targets({ filters: ['page'] })
  })

  it('read `when` and `notKnown` attributes by the list’s row schema', () => {
    expectTypeOf<RowAttributes<'scans.list'>>().toHaveProperty('status')
    expectTypeOf<RowAttributes<'scans.list'>>().not.toHaveProperty('staus')
    defineResource({
      ...words('scan'),
      key: 'scans',
      group: 'scans',
      titleField: 'name',
      ops: { list: 'scans.list' },
      columns: [
        {
          key: 'severity_counts',
          // @ts-expect-error a typo of `status`
          notKnown: (a) => (a.staus ? null : { short: '', long: '' }),
        },
      ],
      // @ts-expect-error a typo of `status`
      rowActions: [{ op: 'scans.start', label: 'Start', when: (a) => a.staus !== 'running' }],
    })
    targets({
      rowActions: [{ op: 'targets.delete', label: 'Delete', when: (a) => a.hosts_count === 0 }],
    })
  })

  it('name other resources by their keys, and related lists by that resource’s filters', () => {
    expectTypeOf<'targets' | 'scan_history'>().toExtend<ResourceKey>()
    targets({
      columns: [{ key: 'organization_id', link: 'organizations' }],
      fields: { organization_id: { picker: 'organizations' } },
      related: [{ label: 'Scans', resource: 'scans', filter: 'target_id' }],
    })
    // @ts-expect-error a typo of `organizations`
    targets({ columns: [{ key: 'organization_id', link: 'organisations' }] })
    // @ts-expect-error a typo of `organizations`
    targets({ fields: { organization_id: { picker: 'organisations' } } })
    // @ts-expect-error a typo of `scans`
    targets({ related: [{ label: 'Scans', resource: 'scan', filter: 'target_id' }] })
    // @ts-expect-error hosts' list has no `status` filter (scans' has)
    targets({ related: [{ label: 'Hosts', resource: 'hosts', filter: 'status' }] })
    // @ts-expect-error a column's id attribute is one of the row's
    targets({ columns: [{ key: 'name', link: 'organizations', linkId: 'org_id' }] })
  })

  it('give each key its own list operation', () => {
    type HostsEntry = Parameters<typeof defineResource<'hosts'>>[0]
    expectTypeOf<HostsEntry['ops']['list']>().toEqualTypeOf<'hosts.list'>()
    expectTypeOf<HostsEntry['key']>().toEqualTypeOf<'hosts'>()
  })
})
