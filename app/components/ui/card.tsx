import type React from 'react'

interface CardParts {
  title?: React.ReactNode
  titleId?: string
  level?: 2 | 3
  status?: React.ReactNode
  meta?: React.ReactNode
  children?: React.ReactNode
}

/** A padded surface for one thing (a proposal, a contract, a review): a title, a chip, then the rest. */
export function Card({
  title,
  titleId,
  level,
  status,
  meta,
  children,
  as: Tag = 'article',
  ...rest
}: CardParts & { as?: 'article' | 'section' | 'div' | 'li' } & Omit<
    React.HTMLAttributes<HTMLElement>,
    'title'
  > & { 'data-testid'?: string }) {
  return (
    <Tag className="ui-card" aria-labelledby={title && titleId ? titleId : undefined} {...rest}>
      <CardContent title={title} titleId={titleId} level={level} status={status} meta={meta}>
        {children}
      </CardContent>
    </Tag>
  )
}

/** What a card holds on its surface; alone for a card kept as HTML, whose surface is the kept element (app/lib/kept-markup.tsx). */
export function CardContent({ title, titleId, level = 3, status, meta, children }: CardParts) {
  const H = level === 2 ? 'h2' : 'h3'
  return (
    <>
      {title || status ? (
        <header className="ui-card-header">
          {title ? <H id={titleId}>{title}</H> : <span />}
          {status}
        </header>
      ) : null}
      {meta ? <p className="ui-card-meta">{meta}</p> : null}
      {children}
    </>
  )
}
