/**
 * Focuses a dialog's first field once its opening animation has ended — unless the user (or a
 * test driver) already put the caret in a field of that dialog: moving it then would send the
 * rest of what they type into the wrong field.
 */
export function focusUnlessTyping(
  target: { focus: () => void } | null | undefined,
  doc: Document = document,
): void {
  const active = doc.activeElement
  const typing =
    active instanceof HTMLElement &&
    active !== doc.body &&
    (active.matches('input, textarea, select, [contenteditable="true"]') ||
      active.isContentEditable) &&
    active.closest('[role="dialog"], .el-dialog, .el-overlay') !== null
  if (!typing) target?.focus()
}
