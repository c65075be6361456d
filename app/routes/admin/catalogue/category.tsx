import { redirect, Form, Link } from 'react-router'
import { useTranslation } from '~/lib/translations'
import type { Route } from './+types/category'
import { apiFor } from '~/lib/api.server'
import { throwApiError } from '~/lib/api-errors.server'
import { requirePermission } from '~/lib/session.server'
import { titled } from '~/lib/meta'
import { ErrorPage } from '~/components/error-page'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { DataTable } from '~/components/ui/data-table'
import { EmptyState } from '~/components/ui/empty-state'
import { imageExtensions } from '#server/modules/files/rules.ts'
import { adminCatalogueContract as c } from '#server/modules/catalogue/admin-contract.ts'
import { catalogueAction, type CatalogueAnswer } from './actions.server'
import { ItemActions, NamesForm, Usage } from './ui'

// /admin/categories/{id} (SuperAdmin only): one area: its names in the five languages, its image,
// its subcategories in order with their skills; each renamed, moved, added or deleted by its own
// plain form (renames open in a <details>, so the page stays short and works without JavaScript).
export async function loader({ context, params, url }: Route.LoaderArgs) {
  requirePermission(context, url, 'admin.area')
  try {
    const { data } = await apiFor(context).call(c.tree)
    const category = data.find((cat) => String(cat.id) === params.categoryId)
    if (!category) throw redirect('/auth/not-found')
    return { category, title: category.names.en }
  } catch (error) {
    throwApiError(error)
  }
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titled(loaderData?.title)
}

export async function action({ request, context, url }: Route.ActionArgs) {
  requirePermission(context, url, 'admin.area')
  return catalogueAction(context, request, url)
}

type Category = Route.ComponentProps['loaderData']['category']
type Subcategory = Category['subcategories'][number]

/** A catalogue entry's name in the page's language (English when it has none). */
function useName() {
  const { i18n } = useTranslation('adminCatalog')
  return (names: Record<string, string>) => names[i18n.language] ?? names.en
}

export default function AdminCategory({ loaderData: { category }, actionData }: Route.ComponentProps) {
  const { t } = useTranslation('adminCatalog')
  const answer = actionData as CatalogueAnswer | undefined
  const name = useName()
  return (
    <main id="main" className="container page">
      <p>
        <Link to="/admin/categories">{t('back')}</Link>
      </p>
      <h1>{name(category.names)}</h1>
      <p>
        <Usage usage={category.usage} />
      </p>
      <Card level={2} title={t('names')} titleId="names-title" as="section">
        <NamesForm
          form="rename-category"
          intent="rename"
          fields={{ kind: 'category', id: category.id }}
          names={category.names}
          answer={answer}
          submit={t('actions.save')}
        />
      </Card>
      <ImageCard category={category} answer={answer} />
      <h2>{t('subcategories')}</h2>
      {category.subcategories.length ? null : <EmptyState title={t('noSubcategories')} />}
      {category.subcategories.map((sub, n) => (
        <SubcategoryCard
          key={sub.id}
          sub={sub}
          first={n === 0}
          last={n === category.subcategories.length - 1}
          answer={answer}
        />
      ))}
      <Card level={2} title={t('addSubcategory')} titleId="add-subcategory" as="section">
        <NamesForm
          form="create-subcategory"
          intent="create"
          fields={{ kind: 'subcategory', parentId: category.id }}
          answer={answer}
          submit={t('actions.add')}
        />
      </Card>
    </main>
  )
}

function ImageCard({ category, answer }: { category: Category; answer: CatalogueAnswer | undefined }) {
  const { t } = useTranslation('adminCatalog')
  const imageError = answer?.form === 'image' ? answer.reply?.error?.file?.[0] : undefined
  return (
    <Card level={2} title={t('image.title')} titleId="image-title" as="section">
      <img src={category.imageUrl} alt={t('image.current')} width={96} height={96} />
      <Form method="post" encType="multipart/form-data" className="form-stack">
        <input type="hidden" name="intent" value="image" />
        <input type="hidden" name="form" value="image" />
        <input type="hidden" name="kind" value="category" />
        <input type="hidden" name="id" value={category.id} />
        <div className="field">
          <label htmlFor="category-image">{t('image.choose')}</label>
          <input
            id="category-image"
            type="file"
            name="file"
            accept={imageExtensions.map((e) => `.${e}`).join(',')}
            required
            aria-invalid={imageError ? true : undefined}
            aria-describedby={imageError ? 'category-image-error' : 'category-image-hint'}
          />
          <p className="muted small" id="category-image-hint">
            {t('image.hint')}
          </p>
          {imageError ? (
            <p className="field-error" id="category-image-error">
              {t(imageError, { defaultValue: imageError })}
            </p>
          ) : null}
        </div>
        <div>
          <Button>{t('image.upload')}</Button>
        </div>
      </Form>
    </Card>
  )
}

/** A subcategory: moved, renamed or deleted, its skills, and a form to add one. */
function SubcategoryCard({
  sub,
  first,
  last,
  answer,
}: {
  sub: Subcategory
  first: boolean
  last: boolean
  answer: CatalogueAnswer | undefined
}) {
  const { t } = useTranslation('adminCatalog')
  const name = useName()
  return (
    <Card
      as="section"
      level={3}
      data-testid="admin-subcategory"
      titleId={`sub-${sub.id}`}
      title={name(sub.names)}
      meta={<Usage usage={sub.usage} />}
    >
      <ItemActions
        kind="subcategory"
        id={sub.id}
        label={name(sub.names)}
        first={first}
        last={last}
        deletable={!sub.skills.length && !sub.usage.profiles && !sub.usage.projects}
        answer={answer}
      />
      <details open={answer?.form === `rename-sub-${sub.id}`}>
        <summary>{t('rename', { name: name(sub.names) })}</summary>
        <NamesForm
          form={`rename-sub-${sub.id}`}
          intent="rename"
          fields={{ kind: 'subcategory', id: sub.id }}
          names={sub.names}
          answer={answer}
          submit={t('actions.save')}
        />
      </details>
      {sub.skills.length ? <SkillsTable sub={sub} answer={answer} /> : null}
      <details open={answer?.form === `add-skill-${sub.id}`}>
        <summary>{t('addSkill', { name: name(sub.names) })}</summary>
        <NamesForm
          form={`add-skill-${sub.id}`}
          intent="create"
          fields={{ kind: 'skill', parentId: sub.id }}
          answer={answer}
          submit={t('actions.add')}
        />
      </details>
    </Card>
  )
}

function SkillsTable({ sub, answer }: { sub: Subcategory; answer: CatalogueAnswer | undefined }) {
  const { t } = useTranslation('adminCatalog')
  const name = useName()
  return (
    <DataTable
      caption={t('skillsOf', { name: name(sub.names) })}
      columns={[{ label: t('skills') }, { label: t('usedBy') }, { label: t('actions.label') }]}
      rows={sub.skills.map((skill) => ({
        key: skill.id,
        testId: 'admin-skill',
        cells: [
          <details key="name" open={answer?.form === `rename-skill-${sub.id}-${skill.id}`}>
            <summary>{name(skill.names)}</summary>
            <NamesForm
              form={`rename-skill-${sub.id}-${skill.id}`}
              intent="rename"
              fields={{ kind: 'skill', id: skill.id }}
              names={skill.names}
              answer={answer}
              submit={t('actions.save')}
            />
          </details>,
          <Usage key="usage" usage={skill.usage} />,
          <ItemActions
            key="actions"
            kind="skill"
            id={skill.id}
            label={name(skill.names)}
            canMove={false}
            deletable={!skill.usage.profiles && !skill.usage.projects}
            answer={answer}
          />,
        ],
      }))}
    />
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />
}
