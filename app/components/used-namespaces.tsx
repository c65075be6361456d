import { useState } from 'react'
import { useUsedNamespaces } from '~/lib/translations'

export const USED_NAMESPACES_ID = 'i18n-namespaces'

/**
 * Names the translation namespaces this page used, so the browser downloads only those before it
 * hydrates (the rest load when a later page asks for them). Rendered after the page, so on the
 * server every component above has already called useTranslation; in the browser it repeats what
 * the server wrote. A component that translates with `t(key, { ns })` must also name that
 * namespace in its useTranslation call, or the browser will not have it.
 */
export function UsedNamespaces() {
  const used = useUsedNamespaces()
  const [json] = useState(() =>
    typeof document === 'undefined'
      ? JSON.stringify(used)
      : (document.getElementById(USED_NAMESPACES_ID)?.textContent ?? '[]'),
  )
  return (
    <script
      type="application/json"
      id={USED_NAMESPACES_ID}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: json.replace(/</g, '\\u003c') }}
    />
  )
}
