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
  level = 3,
  status,
  meta,
  children,
  as: Tag = 'article',
  ...rest
}: CardParts & { as?: 'article' | 'section' | 'div' | 'li' } & Omit<
    React.HTMLAttributes<HTMLElement>,
    'title'
  > & { 'data-testid'?: string }) {
  const H = level === 2 ? 'h2' : 'h3'
  return (
    <Tag className="ui-card" aria-labelledby={title && titleId ? titleId : undefined} {...rest}>
      {title || status ? (
        <header className="ui-card-header">
          {title ? <H id={titleId}>{title}</H> : <span />}
          {status}
        </header>
      ) : null}
      {meta ? <p className="ui-card-meta">{meta}</p> : null}
      {children}
    </Tag>
  )
}
