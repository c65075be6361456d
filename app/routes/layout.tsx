import { Link, Outlet } from 'react-router'
import { useTranslation } from 'react-i18next'

// The common layout of SPEC §2: top bar, page, footer.
export default function Layout() {
  const { t } = useTranslation()
  return (
    <>
      <a className="skip-link" href="#main">
        {t('nav.skipToContent')}
      </a>
      <header className="topbar">
        <div className="container topbar-inner">
          <Link to="/" className="brand" aria-label={t('app.homeLink')}>
            <img src="/logo.svg" alt="" width="28" height="28" />
            <span>Workneer</span>
          </Link>
        </div>
      </header>
      <Outlet />
      <footer className="footer">
        <div className="container">
          <p>{t('footer.rights', { year: new Date().getFullYear() })}</p>
        </div>
      </footer>
    </>
  )
}
