// Mounts a component the way the app runs it: a fresh Pinia and every Element Plus component
// registered (the build imports them on demand; unit tests resolve them globally).
import { PiniaColada } from '@pinia/colada'
import { mount, type ComponentMountingOptions } from '@vue/test-utils'
import ElementPlus from 'element-plus'
import { getActivePinia } from 'pinia'
import type { Component } from 'vue'
import { DATA_OPTIONS } from '@/data/options'

/** Mounts `component` with the active Pinia and Element Plus, attached to the document. */
export function mountWithApp<C extends Component>(
  component: C,
  options: ComponentMountingOptions<C> = {} as ComponentMountingOptions<C>,
) {
  const pinia = getActivePinia()
  if (!pinia) throw new Error('call setActivePinia(createPinia()) first')
  const host = document.createElement('div')
  document.body.appendChild(host)
  return mount(component, {
    attachTo: host,
    ...options,
    global: {
      ...(options.global ?? {}),
      plugins: [
        pinia,
        [PiniaColada, DATA_OPTIONS],
        ElementPlus,
        ...(options.global?.plugins ?? []),
      ],
    },
  } as ComponentMountingOptions<C>)
}
