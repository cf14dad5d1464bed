import { useDebounceFn } from '@vueuse/core'
import { computed, onScopeDispose, ref, shallowRef, watch } from 'vue'
import type { ConnectivityState } from '@contract/offline'
import { toAppError } from '@/data/errors'
import { useAppStore } from '@/stores/app'
import type {
  LocalSource,
  PaletteGroup,
  PaletteItem,
  PaletteSourceFactory,
  RemoteSource,
} from './types'

/** Records are asked for from this many characters on (fewer would match half the service). */
export const MIN_SEARCH = 2
/** How long the palette waits after the last key before asking the service. */
export const PALETTE_DEBOUNCE_MS = 200

/** States in which the account's service cannot answer: records come from the offline copy. */
const OUT_OF_REACH: readonly ConnectivityState[] = ['offline', 'unreachable', 'work-offline']

/** One entry of the palette's list as the keyboard walks it. */
export interface PaletteOption {
  /** The DOM id of its element (aria-activedescendant). */
  id: string
  group: PaletteGroup
  item: PaletteItem
}

const domId = (group: string, item: string) =>
  `palette-option-${group}-${item}`.replace(/[^A-Za-z0-9_-]/g, '-')

/**
 * The palette's search: local sources filtered at each key stroke; remote ones asked together
 * once typing pauses (and only from MIN_SEARCH characters), the previous round cancelled as soon
 * as the text changes; the results grouped by source, in the sources' order, with a cursor the
 * keyboard moves.
 */
export function usePaletteSearch(
  factories: readonly PaletteSourceFactory[],
  options: { debounceMs?: number } = {},
) {
  const app = useAppStore()
  const sources = factories.flatMap((make) => make())
  const local = sources.filter((s): s is LocalSource => s.mode === 'local')
  const remote = sources.filter((s): s is RemoteSource => s.mode === 'remote')

  const text = ref('')
  const offline = computed(() => {
    const id = app.accountId
    return id !== null && OUT_OF_REACH.includes(app.connectivityOf(id).state)
  })
  /** The remote groups of the last round, in the sources' order. */
  const found = shallowRef<PaletteGroup[]>([])
  let round: AbortController | null = null

  /** Cancels the round in flight (its requests are cancelled in main). */
  function cancel(): void {
    round?.abort(new DOMException('A newer search replaced this one.', 'AbortError'))
    round = null
  }

  async function ask(typed: string): Promise<void> {
    cancel()
    const accountId = app.accountId
    const query = typed.trim()
    if (!accountId || query.length < MIN_SEARCH) {
      found.value = []
      return
    }
    const controller = new AbortController()
    round = controller
    const context = { accountId, offline: offline.value, signal: controller.signal }
    const asked = remote.filter((s) => s.available())
    const previous = new Map(found.value.map((g) => [g.key, g]))
    // What the last round found stays on screen until its group's answer comes.
    found.value = asked.map((s) => ({
      key: s.key,
      heading: s.heading,
      items: previous.get(s.key)?.items ?? [],
      state: 'loading',
    }))
    await Promise.all(
      asked.map(async (source) => {
        let group: PaletteGroup
        try {
          const answer = await source.search(query, context)
          group = { key: source.key, heading: source.heading, state: 'ready', ...answer }
        } catch (err) {
          if (controller.signal.aborted) return
          const message = toAppError(err).message
          group = { key: source.key, heading: source.heading, items: [], state: 'error', message }
        }
        if (round !== controller) return
        found.value = found.value.map((g) => (g.key === group.key ? group : g))
      }),
    )
    if (round === controller) round = null
  }
  // A pause after a text that was typed over since (or cleared) asks nothing.
  const askLater = useDebounceFn((typed: string) => {
    if (typed === text.value) void ask(typed)
  }, options.debounceMs ?? PALETTE_DEBOUNCE_MS)

  watch(text, (typed) => {
    if (typed.trim().length < MIN_SEARCH) return void ask(typed)
    // Superseded at once: nothing of the old text is still asked while the user types.
    cancel()
    void askLater(typed)
  })
  watch(
    () => app.accountId,
    () => void ask(text.value),
  )
  onScopeDispose(cancel)

  const groups = computed<PaletteGroup[]>(() => {
    const typed = text.value.trim()
    const mine = local.map<PaletteGroup>((s) => ({
      key: s.key,
      heading: s.heading,
      items: s.items(typed),
      state: 'ready',
    }))
    return [...mine, ...found.value].filter((g) => g.items.length || g.state !== 'ready')
  })

  /** Each group with its options (what the view lists). */
  const sections = computed(() =>
    groups.value.map((group) => ({
      group,
      headingId: domId('heading', group.key),
      options: group.items.map<PaletteOption>((item) => ({
        id: domId(group.key, item.key),
        group,
        item,
      })),
    })),
  )
  const options_ = computed<PaletteOption[]>(() => sections.value.flatMap((s) => s.options))
  const activeId = ref<string | null>(null)
  /** The option under the cursor: the one chosen with the keys while it is listed, else the first. */
  const active = computed<PaletteOption | null>(
    () => options_.value.find((o) => o.id === activeId.value) ?? options_.value[0] ?? null,
  )
  watch(text, () => (activeId.value = null))

  /** Moves the cursor by `step` options, round the ends. */
  function move(step: number): void {
    const list = options_.value
    if (!list.length) return
    const at = active.value ? list.indexOf(active.value) : -1
    activeId.value = list[(at + step + list.length) % list.length].id
  }
  /** Puts the cursor on the option `id` (the pointer moved over it). */
  function point(id: string): void {
    activeId.value = id
  }
  /** Puts the cursor on the first (`'first'`) or the last option. */
  function jump(to: 'first' | 'last'): void {
    const list = options_.value
    activeId.value = (to === 'first' ? list[0] : list[list.length - 1])?.id ?? null
  }

  const searching = computed(() => found.value.some((g) => g.state === 'loading'))
  const tooShort = computed(() => {
    const length = text.value.trim().length
    return length > 0 && length < MIN_SEARCH
  })

  return {
    text,
    offline,
    groups,
    sections,
    options: options_,
    active,
    searching,
    tooShort,
    move,
    point,
    jump,
    cancel,
  }
}
