// My account's sections read the signed-in user from the current-user store, which the view
// loads before it shows them: the tests mount a section the same way.
import { flushPromises } from '@vue/test-utils'
import type { Component } from 'vue'
import { useCurrentUserStore } from '@/stores/currentUser'
import { mountWithApp } from './mountApp'

/** Loads the current user, then mounts the section and lets its own reads land. */
export async function mountUserSection<C extends Component>(section: C) {
  await useCurrentUserStore().load()
  const wrapper = mountWithApp(section)
  await flushPromises()
  return wrapper
}
