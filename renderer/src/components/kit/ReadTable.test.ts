import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { computed, ref } from 'vue'
import type { AppError } from '@contract/errors'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import ReadTable from './ReadTable.vue'

useFakeApp()

const readWith = (error: AppError | null) => ({
  error: computed(() => error),
  retry: async () => {},
  showLoading: ref(false),
})

describe('a read shown as a small table', () => {
  it('says its rows are not known when the read failed without any (issue 36 §6)', async () => {
    const w = mountWithApp(ReadTable, {
      props: {
        read: readWith({ code: 'OFFLINE', message: 'The service cannot be reached.' }),
        rows: [],
        emptyText: 'No products.',
        testId: 'products',
      },
    })
    await flushPromises()
    expect(w.text()).toContain('The service cannot be reached.')
    expect(w.find('.el-table__empty-text').text()).toBe('Not known: it could not be read.')
    expect(w.text()).not.toContain('No products.')
  })

  it('says there are none once the read answered with none', async () => {
    const w = mountWithApp(ReadTable, {
      props: { read: readWith(null), rows: [], emptyText: 'No products.', testId: 'products' },
    })
    await flushPromises()
    expect(w.find('.el-table__empty-text').text()).toBe('No products.')
  })
})
