import { useOtherLanguages, useTranslation } from '~/lib/translations'
import { Card } from '~/components/ui/card'
import {
  BlogArticleBody,
  FaqEntryView,
  HomeBoxCard,
  LogoItem,
  ServiceCard,
} from '~/components/content/pieces'
import { languageNames } from '~/components/shell/language-switcher'
import { formatDate } from '~/lib/format'
import type { ContentKind } from '#server/modules/content/kinds.ts'

type Texts = Record<string, string>
export type PreviewValue = Record<string, unknown>

// How the public page will show what the form holds, in each language it is written in, drawn by
// the public pages' own pieces (decision 242). Nothing is saved to make it.
export function ContentPreview({
  kind,
  value,
  areas,
  author,
}: {
  kind: ContentKind
  value: PreviewValue
  areas: Record<string, string>
  author: string
}) {
  const { t } = useTranslation(['adminContent', 'content'])
  const text = (field: string) => (value[field] ?? {}) as Texts
  const languages =
    kind === 'logos'
      ? []
      : (Object.keys(languageNames) as Array<keyof typeof languageNames>).filter(
          (l) => text(kind === 'faq' ? 'question' : 'title')[l],
        )
  // The byline is said in each language the post is written in.
  useOtherLanguages('content', kind === 'blogs' ? languages : [])
  return (
    <section aria-labelledby="preview-heading" className="content-preview" data-testid="content-preview">
      <h2 id="preview-heading">{t('preview.title')}</h2>
      <p className="muted">{t('preview.lead')}</p>
      {kind === 'logos' ? (
        <Card level={3} title={t('preview.home')}>
          <ul className="logo-row">
            <LogoItem
              name={String(value.name)}
              imageUrl={String(value.imageUrl)}
              linkUrl={String(value.linkUrl ?? '') || null}
            />
          </ul>
        </Card>
      ) : null}
      {languages.map((l) => (
        <Card key={l} level={3} title={languageNames[l]} lang={l} data-testid={`preview-${l}`}>
          {kind === 'blogs' ? (
            <article className="prose">
              <BlogArticleBody
                post={{
                  title: text('title')[l],
                  summary: text('summary')[l] || '',
                  body: text('body')[l],
                  imageUrl: String(value.imageUrl ?? '') || null,
                  publishedAt: new Date().toISOString(),
                }}
                published={formatDate(new Date(), l, { dateStyle: 'long' })}
                by={t('content:blog.by', { author: String(value.author ?? author), lng: l })}
                heading="h4"
              />
            </article>
          ) : null}
          {kind === 'faq' ? (
            <FaqEntryView
              slug={`preview-${l}`}
              question={text('question')[l]}
              answer={text('answer')[l]}
              open
            />
          ) : null}
          {kind === 'boxes' ? (
            <ol className="box-grid">
              <HomeBoxCard icon={String(value.icon)} title={text('title')[l]} body={text('body')[l]} />
            </ol>
          ) : null}
          {kind === 'services' ? (
            <ul className="service-grid">
              <ServiceCard
                area={areas[String(value.areaSlug)] ?? ''}
                title={text('title')[l]}
                body={text('body')[l]}
              />
            </ul>
          ) : null}
        </Card>
      ))}
    </section>
  )
}
