import { useEffect, useRef, useState } from 'react'
import { useFetcher, useLocation, useNavigate, Form } from 'react-router'
import { useTranslation } from 'react-i18next'
import { SearchIcon } from '../ui/icons'
import { searchTypes, type SearchType } from './types'

/** SPEC §2/§4: Workneer goes to the freelancer search, Projects to the project list; an empty term is kept as 'all'. */
export function searchHref(type: SearchType, term: string) {
  const search = encodeURIComponent(term.trim() || 'all')
  return type === 'projects'
    ? `/projects/getprojects?search=${search}`
    : `/freelancers/freelancersearch?search=${search}`
}

export const SUGGESTION_HIDE_MS = 500

type SearchBoxProps = { variant?: 'bar' | 'hero'; defaultType?: SearchType }

// The top bar's search box: a selector (Workneer or Projects) and a term. Without JavaScript it is
// a GET form to /search, which redirects; with JavaScript it suggests as you type (an ARIA
// combobox) and the list hides 500 ms after focus leaves.
//
// Every page starts with an empty box, as the server renders it and as every page is without
// JavaScript: the top bar stays mounted from page to page, so the box is made anew on each
// navigation rather than keeping the last term (and choice) on pages that have nothing to do with it.
export function SearchBox(props: SearchBoxProps) {
  return <SearchForm key={useLocation().key} {...props} />
}

function SearchForm({ variant = 'bar', defaultType = 'workneerer' }: SearchBoxProps) {
  const { t } = useTranslation('shell')
  // One box of each variant per page, so a fixed id.
  const id = `searchbox-${variant}`
  const navigate = useNavigate()
  const fetcher = useFetcher<{ suggestions: string[] }>()
  const [type, setType] = useState<SearchType>(defaultType)
  const [term, setTerm] = useState('')
  const typeField = useRef<HTMLSelectElement>(null)
  const termField = useRef<HTMLInputElement>(null)
  useEffect(() => {
    // On a slow connection the user may choose and type before hydration: the fields keep it while
    // the state starts from the server's values, so the state takes it from them (decision 276).
    const chosen = searchTypes.find((t) => t === typeField.current?.value)
    if (chosen) setType(chosen)
    setTerm(termField.current?.value ?? '')
  }, [])
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const suggestions = term.trim().length >= 2 ? (fetcher.data?.suggestions ?? []) : []
  const listId = `${id}-list`

  useEffect(() => () => clearTimeout(hideTimer.current), [])

  function change(value: string) {
    setTerm(value)
    setActive(-1)
    setOpen(true)
    if (value.trim().length >= 2)
      fetcher.load(`/search/suggest?${new URLSearchParams({ type, term: value.trim() })}`)
  }

  function go(value: string) {
    setOpen(false)
    navigate(searchHref(type, value))
  }

  return (
    <Form
      method="get"
      action="/search"
      role="search"
      className={`searchbox searchbox-${variant}`}
      onSubmit={(e) => {
        e.preventDefault()
        go(active >= 0 && suggestions[active] ? suggestions[active] : term)
      }}
    >
      <label className="visually-hidden" htmlFor={`${id}-type`}>
        {t('search.typeLabel')}
      </label>
      <select
        ref={typeField}
        id={`${id}-type`}
        name="type"
        value={type}
        onChange={(e) => setType(e.target.value as SearchType)}
      >
        <option value="workneerer">{t('search.workneer')}</option>
        <option value="projects">{t('search.projects')}</option>
      </select>
      <div className="searchbox-field">
        <label className="visually-hidden" htmlFor={`${id}-term`}>
          {t('search.termLabel')}
        </label>
        <input
          ref={termField}
          id={`${id}-term`}
          type="search"
          name="term"
          value={term}
          autoComplete="off"
          placeholder={t('search.placeholder')}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open && suggestions.length > 0}
          aria-controls={listId}
          aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
          onChange={(e) => change(e.target.value)}
          onFocus={() => {
            clearTimeout(hideTimer.current)
            setOpen(true)
          }}
          onBlur={() => {
            clearTimeout(hideTimer.current)
            hideTimer.current = setTimeout(() => setOpen(false), SUGGESTION_HIDE_MS)
          }}
          onKeyDown={(e) => {
            if (!suggestions.length) return
            if (e.key === 'ArrowDown') {
              e.preventDefault()
              setOpen(true)
              setActive((a) => (a + 1) % suggestions.length)
            } else if (e.key === 'ArrowUp') {
              e.preventDefault()
              setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1))
            } else if (e.key === 'Escape') {
              setOpen(false)
              setActive(-1)
            }
          }}
        />
        <ul
          id={listId}
          role="listbox"
          className="suggestions"
          hidden={!open || suggestions.length === 0}
          aria-label={t('search.suggestions')}
        >
          {suggestions.map((s, i) => (
            <li
              key={s}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault()
                setTerm(s)
                go(s)
              }}
            >
              {s}
            </li>
          ))}
        </ul>
      </div>
      <button type="submit" className="searchbox-submit" aria-label={t('search.submit')}>
        <SearchIcon />
        {variant === 'hero' ? <span>{t('search.submit')}</span> : null}
      </button>
    </Form>
  )
}
