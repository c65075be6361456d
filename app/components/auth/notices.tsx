import { useTranslation } from '~/lib/translations'

// The messages of the identity screens, with no form library: error texts are keys of the auth
// namespace; texts that are not keys (the API's own) show as they are.
export function useErrorText() {
  const { t } = useTranslation('auth')
  return (key: string | undefined) => (key ? t(key, { defaultValue: key }) : undefined)
}

export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  const errorText = useErrorText()
  if (!errors?.length) return null
  return (
    <div className="notice notice-error" role="alert" id={id}>
      {errors.map((e) => (
        <p key={e}>{errorText(e)}</p>
      ))}
    </div>
  )
}

export function Notice({
  kind = 'success',
  title,
  children,
}: {
  kind?: 'success' | 'error' | 'info'
  title?: string
  children: React.ReactNode
}) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {title ? <h2>{title}</h2> : null}
      <p className="pre-line">{children}</p>
    </div>
  )
}
