import { isoDate } from '~/lib/format'

// The public site's content items as the public pages show them. The admin area's previews render
// these same pieces (decision 242), so a preview is the page, not a likeness of it. Every text is
// rendered as text: an admin's markup shows as the characters typed, never as HTML.

// The icons a home box may name (server/modules/content/admin-contract.ts boxIcons).
const boxIconPaths: Record<string, string> = {
  'clipboard-list': 'M9 4h6v3H9zM7 5H5v16h14V5h-2M9 12h6M9 16h6',
  users:
    'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  'file-signature': 'M14 3H6v18h12V7zM14 3v4h4M8 17c2-2 3 1 5-1l3 1',
  'shield-check': 'M12 3 4 6v6c0 5 3.5 8 8 9 4.5-1 8-4 8-9V6zM9 12l2 2 4-4',
  check: 'M5 12l4 4L19 6',
}

export function HomeBoxCard({ icon, title, body }: { icon: string; title: string; body: string }) {
  return (
    <li className="card box">
      <svg
        className="box-icon"
        width="28"
        height="28"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d={boxIconPaths[icon] ?? boxIconPaths.check} />
      </svg>
      <h3>{title}</h3>
      <p>{body}</p>
    </li>
  )
}

export function ServiceCard({
  id,
  area,
  title,
  body,
  children,
}: {
  id?: string
  area: string
  title: string
  body: string
  children?: React.ReactNode
}) {
  return (
    <li className="service" id={id}>
      <p className="service-area">{area}</p>
      <h3>{title}</h3>
      <p>{body}</p>
      {children}
    </li>
  )
}

export function LogoItem({
  name,
  imageUrl,
  linkUrl,
}: {
  name: string
  imageUrl: string
  linkUrl?: string | null
}) {
  const image = <img src={imageUrl} alt={name} width="190" height="35" loading="lazy" />
  return (
    <li>
      {linkUrl ? (
        <a href={linkUrl} rel="noopener noreferrer external">
          {image}
        </a>
      ) : (
        image
      )}
    </li>
  )
}

export function FaqEntryView({
  slug,
  question,
  answer,
  open,
}: {
  slug: string
  question: string
  answer: string
  open?: boolean
}) {
  return (
    <details className="faq-item" id={slug} open={open}>
      <summary>{question}</summary>
      {paragraphs(answer).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </details>
  )
}

/** A blog post's heading, picture and paragraphs (the body is plain text, paragraphs apart by a blank line). */
export function BlogArticleBody({
  post,
  published,
  by,
  heading: Heading = 'h1',
}: {
  post: { title: string; summary: string; body: string; imageUrl: string | null; publishedAt: string }
  /** The day it was published, in words ("5 August 2026"). */
  published: string
  by: string
  heading?: 'h1' | 'h4'
}) {
  return (
    <>
      <Heading>{post.title}</Heading>
      <p className="post-meta">
        <time dateTime={isoDate(post.publishedAt)}>{published}</time> · {by}
      </p>
      {post.imageUrl ? <img className="post-image" src={post.imageUrl} alt="" loading="lazy" /> : null}
      <p className="lead-text">{post.summary}</p>
      {paragraphs(post.body).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </>
  )
}

export const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
