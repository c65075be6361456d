import { useLocation, useNavigation, Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { newsletterAddress } from '#server/modules/content/newsletter.ts'

// docs/product.md §5: an address that is not text@text.text does nothing and shows nothing. With JavaScript
// the form is not even sent; without it the action redirects back silently. On success the
// server's reply comes back as a notice (see routes/newsletter.tsx).
export function NewsletterForm() {
  const { t } = useTranslation('shell')
  const location = useLocation()
  const navigation = useNavigation()
  const busy = navigation.state === 'submitting' && navigation.formAction === '/newsletter'
  return (
    <Form
      method="post"
      action="/newsletter"
      preventScrollReset
      className="newsletter-form"
      noValidate
      onSubmit={(e) => {
        const value = String(new FormData(e.currentTarget).get('address') ?? '').trim()
        if (!newsletterAddress.test(value)) e.preventDefault()
      }}
    >
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {/* One newsletter form per page (the footer's), so a fixed id. */}
      <label htmlFor="newsletter-address" className="visually-hidden">
        {t('footer.emailLabel')}
      </label>
      <input
        id="newsletter-address"
        type="email"
        name="address"
        autoComplete="email"
        placeholder={t('footer.emailPlaceholder')}
        required
      />
      <button type="submit" className="button button-accent" disabled={busy}>
        {t('footer.subscribe')}
      </button>
    </Form>
  )
}
