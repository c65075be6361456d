import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react'
import { useFetcher, useLocation, useNavigate, Form } from 'react-router'
import { useTranslation } from '~/lib/translations'
import { SearchIcon } from '../ui/icons'
import { searchTypes, type SearchType } from './types'

/** docs/product.md §2/§4: Workneer goes to the freelancer search, Projects to the project list; an empty term is kept as 'all'. */
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
  const listId = `${id}-list`
  const navigate = useNavigate()
  const fetcher = useFetcher<{ suggestions: string[] }>()
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const { type, setType, term, setTerm, typeField, termField } = useFieldsBeforeHydration(defaultType, change)
  const suggestions = term.trim().length >= 2 ? (fetcher.data?.suggestions ?? []) : []

  const { show, hideSoon } = useHideLater(setOpen)

  function change(value: string, searchType = type) {
    setTerm(value)
    setActive(-1)
    setOpen(true)
    if (value.trim().length >= 2)
      fetcher.load(`/search/suggest?${new URLSearchParams({ type: searchType, term: value.trim() })}`)
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
      <TypeSelect id={`${id}-type`} field={typeField} value={type} onChange={setType} />
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
          onFocus={show}
          onBlur={hideSoon}
          onKeyDown={(e) => moveThrough(e, suggestions.length, { setOpen, setActive })}
        />
        <SuggestionList
          id={listId}
          suggestions={suggestions}
          hidden={!open || suggestions.length === 0}
          active={active}
          onPick={(s) => {
            setTerm(s)
            go(s)
          }}
        />
      </div>
      <button type="submit" className="searchbox-submit" aria-label={t('search.submit')}>
        <SearchIcon />
        {variant === 'hero' ? <span>{t('search.submit')}</span> : null}
      </button>
    </Form>
  )
}

function TypeSelect({
  id,
  field,
  value,
  onChange,
}: {
  id: string
  field: React.Ref<HTMLSelectElement>
  value: SearchType
  onChange: (type: SearchType) => void
}) {
  const { t } = useTranslation('shell')
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {t('search.typeLabel')}
      </label>
      <select
        ref={field}
        id={id}
        name="type"
        value={value}
        onChange={(e) => onChange(e.target.value as SearchType)}
      >
        <option value="workneerer">{t('search.workneer')}</option>
        <option value="projects">{t('search.projects')}</option>
      </select>
    </>
  )
}

/**
 * The selector and the term as state. On a slow connection the user may choose and type before
 * hydration: the fields keep it while the state starts from the server's values, so the state
 * takes it from them once mounted (decision 276). Someone still typing in the box then gets the
 * suggestions for what is already there (`typed`), as if the script had been there all along.
 */
function useFieldsBeforeHydration(defaultType: SearchType, typed: (term: string, type: SearchType) => void) {
  const [type, setType] = useState<SearchType>(defaultType)
  const [term, setTerm] = useState('')
  const typeField = useRef<HTMLSelectElement>(null)
  const termField = useRef<HTMLInputElement>(null)
  const latest = useRef(typed)
  latest.current = typed
  useEffect(() => {
    const chosen = searchTypes.find((t) => t === typeField.current?.value) ?? defaultType
    setType(chosen)
    const field = termField.current
    if (field && field.value && document.activeElement === field) latest.current(field.value, chosen)
    else setTerm(field?.value ?? '')
    // Only once, at hydration: later the fields' own events keep the state.
  }, [])
  return { type, setType, term, setTerm, typeField, termField }
}

/** The suggestions show while the term has focus, and hide SUGGESTION_HIDE_MS after it leaves. */
function useHideLater(setOpen: (open: boolean) => void) {
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(hideTimer.current), [])
  return {
    show() {
      clearTimeout(hideTimer.current)
      setOpen(true)
    },
    hideSoon() {
      clearTimeout(hideTimer.current)
      hideTimer.current = setTimeout(() => setOpen(false), SUGGESTION_HIDE_MS)
    },
  }
}

/** The combobox's keys: arrows move through the suggestions, Escape closes them. */
function moveThrough(
  e: React.KeyboardEvent,
  count: number,
  { setOpen, setActive }: { setOpen: (open: boolean) => void; setActive: Dispatch<SetStateAction<number>> },
) {
  if (!count) return
  if (e.key === 'ArrowDown') {
    e.preventDefault()
    setOpen(true)
    setActive((a) => (a + 1) % count)
  } else if (e.key === 'ArrowUp') {
    e.preventDefault()
    setActive((a) => (a <= 0 ? count - 1 : a - 1))
  } else if (e.key === 'Escape') {
    setOpen(false)
    setActive(-1)
  }
}

function SuggestionList({
  id,
  suggestions,
  hidden,
  active,
  onPick,
}: {
  id: string
  suggestions: string[]
  hidden: boolean
  active: number
  onPick: (suggestion: string) => void
}) {
  const { t } = useTranslation('shell')
  return (
    <ul id={id} role="listbox" className="suggestions" hidden={hidden} aria-label={t('search.suggestions')}>
      {suggestions.map((s, i) => (
        <li
          key={s}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          onMouseDown={(e) => {
            e.preventDefault()
            onPick(s)
          }}
        >
          {s}
        </li>
      ))}
    </ul>
  )
}
