import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { watchMenus } from './menus'

// With JavaScript, the <details> menus of the shell behave like menus (watchMenus) and close after
// every navigation.
export function useShellMenus() {
  const location = useLocation()
  const shownKey = useRef(location.key)
  useEffect(() => {
    // Not on the first render: a menu opened before hydration finished stays open.
    if (shownKey.current === location.key) return
    shownKey.current = location.key
    for (const d of document.querySelectorAll<HTMLDetailsElement>('details[data-menu][open]')) d.open = false
  }, [location.key])
  useEffect(() => watchMenus(), [])
}
