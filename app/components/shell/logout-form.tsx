import { useTranslation } from '~/lib/translations'
import { Form } from 'react-router'

/** Logout is a POST (docs/product.md §6: no page can sign someone out with a link), in both menus that offer it. */
export function LogoutForm({ buttonClassName }: { buttonClassName: string }) {
  const { t } = useTranslation('shell')
  return (
    <Form method="post" action="/auth/logout" reloadDocument>
      <button type="submit" className={buttonClassName}>
        {t('profile.logout')}
      </button>
    </Form>
  )
}
