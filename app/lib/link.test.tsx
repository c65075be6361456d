import { renderToString } from 'react-dom/server'
import { Link as RouterLink, createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { Link, isPlainPath } from './link'

// The server's Link must write the very anchor React Router's <Link> writes (the browser's <Link>
// hydrates it), only for less.
function render(element: React.ReactElement, at = '/projects/client/details/7') {
  const Stub = createRoutesStub([{ path: '*', Component: () => element }])
  return renderToString(<Stub initialEntries={[at]} />)
}

const links: Array<React.ComponentProps<typeof Link>> = [
  { to: '/' },
  { to: '/projects/getprojects', className: 'button button-accent topbar-cta' },
  { to: '/categories?search=Planning%20and%20strategy' },
  { to: '/categories?search=Инженерия и проектирование' },
  { to: '/notifications?page=2#older', rel: 'next', preventScrollReset: true },
  { to: '/auth/terms-and-conditions/', 'aria-label': 'Terms "and" <conditions>', title: 'x & y' },
  { to: '/chats', discover: 'none', replace: true, state: { from: 'menu' }, viewTransition: true },
  // Not plain: React Router resolves or treats these itself, and the server's Link hands them over.
  { to: 'details/8' },
  { to: '../client' },
  { to: '/projects/../blogs' },
  { to: '//elsewhere.example/x' },
  { to: 'https://elsewhere.example/x', target: '_blank' },
  { to: { pathname: '/projects', search: '?page=2' } },
  { to: '/blogs', prefetch: 'intent' },
  { to: '/auth/logout', reloadDocument: true },
]

describe("the server's Link", () => {
  it.each(links)('writes what React Router writes for %o', (props) => {
    const ours = render(<Link {...props}>a link</Link>)
    expect(ours).toContain('a link')
    expect(ours).toBe(render(<RouterLink {...props}>a link</RouterLink>))
  })

  it('takes the short way only for absolute, clean paths', () => {
    expect(['/', '/projects/client', '/categories?search=a/../b', '/x/#y'].every(isPlainPath)).toBe(true)
    expect(
      ['', 'details/8', './x', '/a/./b', '/a/..', '//host/x', '/a//b', 'https://x.example/'].some(
        isPlainPath,
      ),
    ).toBe(false)
  })
})
