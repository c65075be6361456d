import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { LanguageSwitcher } from './language-switcher'
import { categoryHref } from './mega-menu'
import { NewsletterForm } from './newsletter-form'
import { companyPages, type ShellCategory } from './types'

const social = [
  {
    name: 'LinkedIn',
    href: 'https://www.linkedin.com/company/workneer',
    path: 'M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.5h4V21H3zM9.5 9.5h3.8v1.6h.05c.53-1 1.83-2.05 3.77-2.05 4.03 0 4.78 2.65 4.78 6.1V21h-4v-5.1c0-1.22-.02-2.79-1.7-2.79-1.7 0-1.96 1.33-1.96 2.7V21h-4z',
  },
  {
    name: 'X',
    href: 'https://x.com/workneer',
    path: 'M17.5 3h3.1l-6.8 7.8L21.8 21h-6.3l-4.9-6.4L4.9 21H1.8l7.3-8.3L1.5 3h6.4l4.4 5.9zm-1.1 16.2h1.7L6.6 4.7H4.8z',
  },
  {
    name: 'Facebook',
    href: 'https://www.facebook.com/workneer',
    path: 'M14 8.5V6.8c0-.8.5-1 1-1h2.5V2h-3.4C10.6 2 10 4.6 10 6.3v2.2H7.5V12H10v10h4V12h3l.4-3.5z',
  },
  {
    name: 'YouTube',
    href: 'https://www.youtube.com/@workneer',
    path: 'M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8zM10 15V9l5.2 3z',
  },
]

// docs/product.md §1/§2: newsletter, social links, category shortcuts (to /categories with the name as the
// search term) and the all-rights-reserved line; the language switcher too.
export function Footer({ categories }: { categories: ShellCategory[] }) {
  const { t } = useTranslation('shell')
  const { t: tc } = useTranslation()
  const year = new Date().getFullYear()
  return (
    <footer className="footer" id="footer">
      <div className="container footer-grid">
        <section className="footer-about" aria-labelledby="footer-newsletter">
          <p className="footer-brand">
            <img src="/logo.svg" alt="" width="26" height="26" loading="lazy" /> Workneer
          </p>
          <p className="footer-tagline">{t('footer.tagline')}</p>
          <h2 id="footer-newsletter" className="footer-heading">
            {t('footer.newsletterTitle')}
          </h2>
          <p className="footer-small">{t('footer.newsletterLead')}</p>
          <NewsletterForm />
        </section>
        <nav aria-labelledby="footer-categories">
          <h2 id="footer-categories" className="footer-heading">
            {t('footer.categories')}
          </h2>
          <ul className="footer-links">
            {categories.map((c) => (
              <li key={c.id}>
                <Link to={categoryHref(c.name)}>{c.name}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company" className="footer-heading">
            {t('footer.company')}
          </h2>
          <ul className="footer-links">
            {companyPages.map((p) => (
              <li key={p.to}>
                <Link to={p.to}>{t(p.label)}</Link>
              </li>
            ))}
            <li>
              <Link to="/auth/terms-and-conditions">{t('nav.terms')}</Link>
            </li>
          </ul>
        </nav>
        <section aria-labelledby="footer-social">
          <h2 id="footer-social" className="footer-heading">
            {t('footer.social')}
          </h2>
          <ul className="social-links">
            {social.map((s) => (
              <li key={s.name}>
                <a href={s.href} rel="noopener noreferrer" target="_blank" aria-label={s.name}>
                  <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                    <path d={s.path} fill="currentColor" />
                  </svg>
                </a>
              </li>
            ))}
          </ul>
          <h2 className="footer-heading">{t('footer.language')}</h2>
          <LanguageSwitcher variant="footer" />
        </section>
      </div>
      <div className="container footer-bottom">
        <p>{tc('footer.rights', { year })}</p>
      </div>
    </footer>
  )
}
