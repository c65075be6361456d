import { useTranslation } from '~/lib/translations'

/**
 * A field's first error, translated: its own module, so a form page does not load the projects'
 * shared screen parts (chips, confirmations, toolbars) for it.
 */
export function ErrorText({ errors, id }: { errors?: string[]; id?: string }) {
  const { t } = useTranslation('projects')
  const first = errors?.[0]
  return first ? (
    <p className="field-error" id={id} role="alert">
      {t(first, { defaultValue: first })}
    </p>
  ) : null
}
