import { defineAsyncComponent, type AsyncComponentLoader, type Component } from 'vue'

const loaded = new WeakMap<AsyncComponentLoader, Component>()

/** The component a registry entry names by its loader (one async component per loader). */
export function lazyComponent(loader: AsyncComponentLoader): Component {
  const known = loaded.get(loader)
  if (known) return known
  const component = defineAsyncComponent(loader)
  loaded.set(loader, component)
  return component
}
