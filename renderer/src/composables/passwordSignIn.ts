import { nextTick, ref, type Ref } from 'vue'
import { signInInput, type ChallengeView, type SignInOutcome } from '@contract/sessions'
import { useSchemaForm } from '@/data/useSchemaForm'
import { useSignInStore } from '@/stores/signIn'

/** The password's message as a sentence ("Enter the password…", "The password is too long."). */
export function passwordMessage(message: string): string {
  return message === 'is required'
    ? 'Enter the password of this account.'
    : `The password ${message}.`
}

/**
 * Signing in to one account with its password (the sign-in dialog and the re-authentication
 * prompt): the form checked by main's own schema, the second-factor challenge when the service
 * asks for one, and the way back to an empty password when that step ends.
 */
export function usePasswordSignIn(options: {
  accountId: () => string | null
  /** The remember choice this form offers; left out, the account's setting stays as it is. */
  remember?: boolean
  root: Ref<HTMLElement | null | undefined>
}) {
  const signIn = useSignInStore()
  const challenge = ref<ChallengeView | null>(null)
  const form = useSchemaForm<SignInOutcome>({
    schema: signInInput,
    initial: () => ({
      password: '',
      ...(options.remember === undefined ? {} : { remember: options.remember }),
    }),
    toInput: (values) => ({ accountId: options.accountId() ?? '', ...values }),
    send: (input) => {
      const { accountId, password, remember } = input as {
        accountId: string
        password: string
        remember?: boolean
      }
      return signIn.signIn(accountId, password, remember)
    },
    phrase: (name, message) => (name === 'password' ? passwordMessage(message) : message),
    root: options.root,
  })

  async function focusPassword(): Promise<void> {
    await nextTick()
    options.root.value?.querySelector<HTMLInputElement>('[data-field="password"] input')?.focus()
  }

  /**
   * Sends the password; resolves to the outcome (a challenge is kept here), or null when refused
   * (the message shows and the caret is back in the password).
   */
  async function submit(): Promise<SignInOutcome | null> {
    const outcome = await form.submit()
    if (!outcome) {
      await focusPassword()
      return null
    }
    form.setValue('password', '')
    if (outcome.status === 'challenge') challenge.value = outcome.challenge
    return outcome
  }

  /** Leaves the second step for an empty password, with the reason when there is one. */
  async function backToPassword(message: string | null): Promise<void> {
    challenge.value = null
    form.reset({ ...form.values, password: '' })
    form.alert.value = message
    await focusPassword()
  }

  /** Forgets the password and any challenge (unmounting the step cancels it). */
  function clear(): void {
    challenge.value = null
    form.reset({ ...form.values, password: '' })
  }

  return { form, challenge, submit, backToPassword, clear, focusPassword }
}
