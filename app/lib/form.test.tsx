import { renderToString } from 'react-dom/server'
import { Form as RouterForm, createRoutesStub } from 'react-router'
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
  { method: 'post', action: '/set-language', reloadDocument: true, className: 'menu-panel language-panel', discover: 'none' },
  { method: 'post', action: '/newsletter', preventScrollReset: true, replace: true, navigate: false, fetcherKey: 'news', state: { a: 1 }, viewTransition: true, encType: 'multipart/form-data' },
  // Not plain: React Router resolves these itself, and the server's Form hands them over.
  { method: 'post' },
  { method: 'post', action: '.' },
  { method: 'post', action: 'reply' },
  { method: 'post', action: '../client' },
  { method: 'post', action: 'https://elsewhere.example/x' },
]

describe("the server's Form", () => {
  it.each(forms)('writes what React Router writes for %o', (props) => {
    const ours = render(<Form {...props}>a form</Form>)
    expect(ours).toContain('a form</form>')
    expect(ours).toBe(render(<RouterForm {...props}>a form</RouterForm>))
  })
})
