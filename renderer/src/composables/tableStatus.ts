import { computed, type Ref } from 'vue'
import type { RowActionDef } from '@/resources'
import type { ResourceRow, useResourceActions } from './resourceActions'

/** What a resource table's status needs from its list and its actions. */
export interface TableStatusOptions {
  list: { loading: Ref<boolean>; error: Ref<unknown> }
  actions: Pick<ReturnType<typeof useResourceActions>, 'rowActionsFor' | 'permissionsSettled'>
  rowOf: (id: string) => ResourceRow
}

/**
 * A resource table's rows as main read them (a row's mark, the actions it offers) and whether
 * the table is final for its account (what journeys wait for).
 */
export function useTableStatus({ list, actions, rowOf }: TableStatusOptions) {
  // A row main could only read as sent offers no action: what it would act on may be wrong.
  const rowActions = (id: string): RowActionDef[] =>
    rowOf(id).mark?.partial ? [] : actions.rowActionsFor(rowOf(id).attributes, id)
  const markText = (id: string): string => {
    const mark = rowOf(id).mark
    if (!mark) return ''
    return mark.partial
      ? 'This row did not fit what ScanDesk expects; it is shown as the service sent it.'
      : `Shown as text: ${(mark.asText ?? []).join(', ')}.`
  }
  // What the table shows is final for its account: the page's rows (or their refusal) are in and
  // the writes offered no longer wait for the user's permissions. Journeys wait for this.
  const state = computed(() => {
    if (list.loading.value || !actions.permissionsSettled.value) return 'loading'
    return list.error.value ? 'error' : 'ready'
  })
  // While loading, what it still waits for (said by a journey that timed out).
  const waitingFor = computed(() =>
    [list.loading.value && 'rows', !actions.permissionsSettled.value && 'permissions']
      .filter(Boolean)
      .join(' '),
  )
  return { rowActions, markText, state, waitingFor }
}
