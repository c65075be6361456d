import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'

/** The page behind a newsletter mail's link: its title, then either why the link is refused or what pressing the one button does. */
export function NewsletterLinkPage({
  invalid,
  keys,
  primary,
}: {
  invalid: boolean
  keys: { title: string; invalid: string; body: string; button: string }
  primary?: boolean
}) {
  const { t } = useTranslation('content')
  return (
    <main id="main" className="container page narrow">
      <h1>{t(`newsletter.${keys.title}`)}</h1>
      {invalid ? (
        <p className="notice notice-error" role="alert">
          {t(`newsletter.${keys.invalid}`)}
        </p>
      ) : (
        <>
          <p>{t(`newsletter.${keys.body}`)}</p>
          <Form method="post">
            <button type="submit" className={primary ? 'button button-primary' : 'button'}>
              {t(`newsletter.${keys.button}`)}
            </button>
          </Form>
        </>
      )}
    </main>
  )
}
