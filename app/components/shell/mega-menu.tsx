import { useTranslation } from '~/lib/translations'
import { Link } from 'react-router'
import { ChevronIcon } from '../ui/icons'
import type { ShellCategory } from './types'

export const categoryHref = (name: string) => `/categories?search=${encodeURIComponent(name)}`

// docs/product.md §2/§9: the Categories mega-menu, name and image of each area, at most 400 px high and
// 385 px wide. A <details> element, so it opens without JavaScript and from the keyboard.
export function MegaMenu({ categories }: { categories: ShellCategory[] }) {
  const { t } = useTranslation('shell')
  return (
    <details className="menu megamenu" data-menu>
      <summary className="menu-trigger">
        {t('nav.categories')}
        <ChevronIcon />
      </summary>
      <div className="menu-panel megamenu-panel">
        <ul className="megamenu-list">
          {categories.map((c) => (
            <li key={c.id}>
              <Link to={categoryHref(c.name)} className="megamenu-item">
                <img src={c.attachmentUrl} alt="" width="40" height="40" loading="lazy" />
                <span>{c.name}</span>
              </Link>
            </li>
          ))}
        </ul>
        <Link to="/categories" className="megamenu-all">
          {t('nav.allCategories')}
        </Link>
      </div>
    </details>
  )
}
