import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'

// With JavaScript, the <details> menus of the shell behave like menus: one open at a time, closed
// by a click outside, by Escape (focus returns to the trigger) and after every navigation.
export function useShellMenus() {
  const location = useLocation()
  const shownKey = useRef(location.key)
  useEffect(() => {
    // Not on the first render: a menu opened before hydration finished stays open.
    if (shownKey.current === location.key) return
    shownKey.current = location.key
    for (const d of document.querySelectorAll<HTMLDetailsElement>('details[data-menu][open]')) d.open = false
  }, [location.key])
  useEffect(() => {
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
    // Says the menus now answer Escape and outside clicks (before hydration only <details> itself
    // works): the end-to-end tests wait for it rather than guess when hydration is done.
    document.documentElement.dataset.menus = 'on'
    return () => {
      delete document.documentElement.dataset.menus
      document.removeEventListener('click', onClick)
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('toggle', onToggle, true)
    }
  }, [])
}
