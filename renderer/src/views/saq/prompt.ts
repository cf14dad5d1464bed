import { ElMessageBox } from 'element-plus'

/** A line of text from the user (null when cancelled); Electron has no window.prompt. */
export async function askLine(
  message: string,
  title: string,
  value: string,
): Promise<string | null> {
  try {
    const answer = await ElMessageBox.prompt(message, title, {
      inputValue: value,
      confirmButtonText: 'OK',
      cancelButtonText: 'Cancel',
      inputValidator: (v: string) => !!v?.trim() || 'Required',
    })
    return answer.value
  } catch {
    return null
  }
}
