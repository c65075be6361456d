/**
 * The shell's <details> menus behave like menus: one open at a time, closed by a click outside and
 * by Escape (focus returns to the trigger). Returns what undoes it.
 *
 * Self-contained on purpose (no imports, no outer names): a visitor's page loads no JavaScript
 * bundle and runs this function inline from its source text (decision 314).
 */
export function watchMenus(): () => void {
  const menus = () => [...document.querySelectorAll<HTMLDetailsElement>('details[data-menu]')]
  function onClick(e: MouseEvent) {
    const target = e.target as Node
    for (const d of menus()) if (d.open && !d.contains(target)) d.open = false
  }
  function onKey(e: KeyboardEvent) {
    if (e.key !== 'Escape') return
    for (const d of menus()) {
      if (!d.open) continue
      d.open = false
      if (d.contains(document.activeElement)) d.querySelector('summary')?.focus()
    }
  }
  function onToggle(e: Event) {
    const opened = e.target as HTMLDetailsElement
    if (!opened.matches?.('details[data-menu]') || !opened.open) return
    for (const d of menus()) if (d !== opened && d.open && !d.contains(opened)) d.open = false
  }
  document.addEventListener('click', onClick)
  document.addEventListener('keydown', onKey)
  document.addEventListener('toggle', onToggle, true)
  // Says the menus now answer Escape and outside clicks (before, only <details> itself works): the
  // end-to-end tests wait for it rather than guess when the script has run.
  document.documentElement.dataset.menus = 'on'
  return () => {
    delete document.documentElement.dataset.menus
    document.removeEventListener('click', onClick)
    document.removeEventListener('keydown', onKey)
    document.removeEventListener('toggle', onToggle, true)
  }
}
