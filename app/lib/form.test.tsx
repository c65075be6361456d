import { renderToString } from 'react-dom/server'
import { MemoryRouter, Route, Routes, Form as RouterForm, createRoutesStub } from 'react-router'
import { describe, expect, it } from 'vitest'
import { Form } from './form'

// The server's Form must write the very form React Router's <Form> writes (the browser's <Form>
// hydrates it), only for less.
function render(element: React.ReactElement, at = '/projects/client?page=2&index') {
  const Stub = createRoutesStub([{ path: '*', Component: () => element }])
  return renderToString(<Stub initialEntries={[at]} />)
}

const forms: Array<React.ComponentProps<typeof Form>> = [
  { method: 'post', action: '/auth/logout', reloadDocument: true },
  { method: 'POST', action: '/notifications/12/read', className: 'bell-read' },
  { action: '/projects', role: 'search', 'aria-label': 'Find "projects" <here>' },
  { method: 'get', action: '/categories?search=Инженерия#top', id: 'f' },
  {
    method: 'post',
    action: '/set-language',
    reloadDocument: true,
    className: 'menu-panel language-panel',
    discover: 'none',
  },
  {
    method: 'post',
    action: '/newsletter',
    preventScrollReset: true,
    replace: true,
    navigate: false,
    fetcherKey: 'news',
    state: { a: 1 },
    viewTransition: true,
    encType: 'multipart/form-data',
  },
  { method: 'post' },
  { method: 'get', className: 'card search-filters', 'aria-label': 'Filters' },
  { className: 'ui-button-group', encType: 'multipart/form-data', method: 'post' },
  // Not plain: React Router resolves these itself, and the server's Form hands them over.
  { method: 'post', action: '.' },
  { method: 'post', action: 'reply' },
  { method: 'post', action: '../client' },
  { method: 'post', action: 'https://elsewhere.example/x' },
]

// Where a form without an action posts: the page's own address, as React Router writes it (an
// empty `index` parameter is one it rewrites, and the server's Form leaves it to React Router).
const addresses = [
  '/projects/client?page=2&index',
  '/projects/client/details/7',
  '/projects/client/details/7?accepted=1&q=%22a%20b%22',
  '/projects/client/',
  '/freelancers?search=Инженер&index=2',
  '/x?index=&a=1',
  '/x?a=1&index',
]

describe("the server's Form", () => {
  it.each(forms)('writes what React Router writes for %o', (props) => {
    for (const at of addresses) {
      const ours = render(<Form {...props}>a form</Form>, at)
      expect(ours).toContain('a form</form>')
      expect(ours, at).toBe(render(<RouterForm {...props}>a form</RouterForm>, at))
    }
  })

  // Outside a data router React Router's <Form> cannot render at all (it needs the route's id): so
  // it is with a kept part's own render (decision 284), where the server's Form writes it alone.
  it('writes a form without an action itself, at the page’s own address, without a data router', () => {
    const at = '/projects/client/details/7?accepted=1'
    const bare = (form: React.ReactElement) =>
      renderToString(
        <MemoryRouter initialEntries={[at]}>
          <Routes>
            <Route path="/projects/client/details/:id" element={form} />
          </Routes>
        </MemoryRouter>,
      )
    expect(() => bare(<RouterForm method="post">a form</RouterForm>)).toThrow(/data router/)
    const html = bare(<Form method="post">a form</Form>)
    expect(html).toContain('action="/projects/client/details/7?accepted=1"')
    expect(html).toContain('method="post"')
  })

  it('leaves a form without an action on an index route to React Router', () => {
    const Stub = createRoutesStub([
      { path: '/', children: [{ index: true, Component: () => <Form method="post">a form</Form> }] },
    ])
    const html = renderToString(<Stub initialEntries={['/?a=1']} />)
    expect(html).toContain('action="/?index&amp;a=1"')
  })
})
