import { ActionForm, Button, ButtonGroup, ButtonLink } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { Chip, StatusChip } from '~/components/ui/status-chip'
import { DefinitionList } from '~/components/ui/definition-list'
import { EmptyState } from '~/components/ui/empty-state'
import { machineStates, type Machine } from '~/components/ui/tones'
import { Notice } from '~/components/ui/notice'
import { Pagination } from '~/components/ui/pagination'
import { Person, Rating } from '~/components/ui/person'
import { Progress } from '~/components/ui/progress'
import { SectionNav } from '~/components/ui/section-nav'
import { TabNav } from '~/components/ui/tab-nav'
import { Stepper } from '~/components/ui/stepper'
import { TagInput } from '~/components/ui/tag-input'
import { Timeline } from '~/components/ui/timeline'
import { Toolbar } from '~/components/ui/toolbar'
import { Confirm, ConfirmStep } from '~/components/ui/confirm'
import type { Hydrating } from '~/root'
import { Chart, Conversation, Table } from './styleguide-samples'

// /_styleguide: every component of app/components/ui in every state, on one page that a Playwright
// test screenshots (tests/e2e/styleguide.spec.ts), so a change in look is a reviewed image diff.
// Development only (decision 110): in production it is the not-found page, unless the server runs
// for the end-to-end tests (E2E=1), which need it. Headings are the components' names (code, not
// copy); every string the components themselves show is translated.
// The guide shows every component as it behaves with JavaScript, to visitors too (decision 314).
export const handle: Hydrating = { hydrate: true }

export function loader() {
  if (process.env.NODE_ENV !== 'development' && process.env.E2E !== '1')
    throw new Response('Not Found', { status: 404 })
  return null
}

export function meta() {
  return [{ title: 'Style guide · Workneer' }, { name: 'robots', content: 'noindex' }]
}

// Fixed sample data: the page must look the same on every run.
const at = (day: number, hour: number) => new Date(Date.UTC(2026, 0, day, hour, 30)).toISOString()
const skills = ['AutoCAD', 'Eurocode 2', 'Eurocode 5', 'Revit', 'Structural analysis', 'Timber design'].map(
  (name, n) => ({ id: n + 1, name }),
)

export default function Styleguide() {
  return (
    <main id="main" className="container page styleguide">
      <h1>Workneer style guide</h1>
      <Chips />
      <Buttons />
      <Cards />
      <StepperSample />
      <TimelineSample />
      <Fields />
      <Tags />
      <Sections />
      <ToolbarSample />
      <Notices />
      <Conversation />
      <Table />
      <Chart />
    </main>
  )
}

function Chips() {
  return (
    <section className="ui-section" aria-labelledby="sg-chip">
      <h2 id="sg-chip">StatusChip</h2>
      {(Object.keys(machineStates) as Machine[]).map((m) => (
        <p key={m} data-testid={`chips-${m}`}>
          <strong>{m}</strong>:{' '}
          {machineStates[m].map((s) => (
            <span key={s}>
              <StatusChip machine={m} state={s} />{' '}
            </span>
          ))}
        </p>
      ))}
      <p>
        Chip: <Chip tone="info">Client</Chip>
      </p>
    </section>
  )
}

function Buttons() {
  return (
    <section className="ui-section" aria-labelledby="sg-button">
      <h2 id="sg-button">Button · ButtonLink · ButtonGroup · ActionForm</h2>
      <ButtonGroup label="Buttons">
        <Button variant="primary">Primary</Button>
        <Button>Secondary</Button>
        <Button variant="primary" disabled>
          Disabled
        </Button>
        <ButtonLink to="/_styleguide">Link</ButtonLink>
        <Button variant="destructive">Destructive</Button>
      </ButtonGroup>
      <ButtonGroup label="Forms">
        <ActionForm intent="accept" label="Accept" variant="primary" />
        <ActionForm intent="delete" label="Delete" variant="destructive" />
      </ButtonGroup>
      <h3>Confirm · ConfirmStep</h3>
      <ButtonGroup label="Confirmations">
        <Confirm
          label="Approve"
          variant="primary"
          question="Release €1,200.00 to Ana Ruiz?"
          yes="Yes, release €1,200.00"
          fields={{ intent: 'installment-approve', id: 1 }}
        />
      </ButtonGroup>
      <ConfirmStep
        question="Withdraw €500.00 to Bank account · DE89 •••• 3000?"
        yes="Yes, withdraw €500.00"
        fields={{ amount: '500' }}
        back="/_styleguide"
      />
    </section>
  )
}

function Cards() {
  return (
    <section className="ui-section" aria-labelledby="sg-card">
      <h2 id="sg-card">Card · DefinitionList · Person · Rating</h2>
      <Card
        title="Timber footbridge check"
        titleId="sg-card-title"
        status={<StatusChip machine="proposal" state="pending" />}
        meta="Structural Engineering · remote"
      >
        <Person
          name="Fred Freelancer"
          href="/_styleguide"
          subtitle="Structural engineer"
          rating={{ value: 4.6, count: 12 }}
        />
        <DefinitionList
          items={[
            ['Price', '€1,400.00'],
            ['Duration', '21 d'],
            ['Empty', null],
          ]}
        />
        <p>I check timber bridges to Eurocode 5 and can deliver both installments in three weeks.</p>
      </Card>
      <Card>
        <Person name="Nina New" subtitle="No profile link" rating={{ value: 0, count: 0 }} size={36} />{' '}
        <Rating value={3} count={1} />
      </Card>
    </section>
  )
}

function StepperSample() {
  return (
    <section className="ui-section" aria-labelledby="sg-stepper">
      <h2 id="sg-stepper">Stepper</h2>
      <Stepper
        label="Installments"
        steps={machineStates.installment.map((state, n) => ({
          key: state,
          state,
          title: `Installment ${n + 1} · €500.00`,
          actions:
            state === 'pending' || state === 'submitted' ? (
              <ActionForm intent="move" label={state === 'pending' ? 'Fund' : 'Approve'} variant="primary" />
            ) : undefined,
          waiting:
            state === 'funded' || state === 'changes_requested' || state === 'approved'
              ? 'Waiting for the other side'
              : undefined,
        }))}
      />
    </section>
  )
}

function TimelineSample() {
  return (
    <section className="ui-section" aria-labelledby="sg-timeline">
      <h2 id="sg-timeline">Timeline</h2>
      <Timeline
        events={[
          { id: 1, at: at(5, 9), text: 'Carla Client published the project' },
          { id: 2, at: at(6, 14), text: 'Fred Freelancer sent a proposal' },
          { id: 3, at: at(8, 11), text: 'Carla Client accepted a proposal' },
        ]}
      />
      <Timeline events={[]} empty="Nothing has happened yet." />
    </section>
  )
}

function Fields() {
  return (
    <section className="ui-section" aria-labelledby="sg-field">
      <h2 id="sg-field">Fields: radios and checkboxes beside their labels</h2>
      <fieldset className="field" data-testid="sg-radios">
        <legend>Payment</legend>
        <div>
          <label>
            <input type="radio" name="budgetType" value="fixed" defaultChecked /> Fixed price
          </label>
          <label>
            <input type="radio" name="budgetType" value="hourly" /> Hourly
          </label>
        </div>
      </fieldset>
      <div className="field">
        <label>
          <input type="checkbox" name="remote" defaultChecked /> Remote work is fine
        </label>
      </div>
    </section>
  )
}

function Tags() {
  return (
    <section className="ui-section" aria-labelledby="sg-tags">
      <h2 id="sg-tags">TagInput</h2>
      <TagInput
        name="skillIds"
        legend="Skills"
        hint="Choose the skills the work needs."
        options={skills}
        selected={[2, 6]}
      />
      <TagInput
        name="subcategoryIds"
        legend="Subcategories"
        options={skills.slice(0, 3)}
        error="Choose at most 5."
      />
    </section>
  )
}

function Sections() {
  return (
    <section className="ui-section" aria-labelledby="sg-sections">
      <h2 id="sg-sections">SectionNav · Progress · TabNav</h2>
      {/* The admin area's tab row; the current tab is the one whose path is this page's. */}
      <TabNav
        label="Administration sections"
        items={[
          { to: '/admin', label: 'Overview', end: true },
          { to: '/_styleguide', label: 'Style guide' },
          { to: '/admin/audit', label: 'Audit trail' },
        ]}
      />
      {/* Not in an aside: a sidebar holding a section list is sticky, which a full-page screenshot cannot hold still. */}
      <div className="ui-with-sidebar">
        <div>
          <Card as="section" level={3} title="Profile completeness" titleId="sg-progress">
            <Progress percent={60} text="60% complete" labelledBy="sg-progress" />
          </Card>
          <SectionNav
            label="Profile sections"
            items={[
              { href: '#sg-sections', label: 'Title and overview' },
              { href: '#sg-sections', label: 'Rate and availability', note: 'to add' },
              { href: '#sg-sections', label: 'Education' },
            ]}
          />
        </div>
        <Card as="section" level={3} title="Rate and availability" titleId="sg-section-card">
          <Notice kind="success">Your changes are saved.</Notice>
          <ButtonGroup>
            <Button variant="primary">Save</Button>
          </ButtonGroup>
        </Card>
      </div>
    </section>
  )
}

function ToolbarSample() {
  return (
    <section className="ui-section" aria-labelledby="sg-toolbar">
      <h2 id="sg-toolbar">Toolbar · Pagination · EmptyState</h2>
      <Toolbar label="Filters">
        <form method="get">
          <label htmlFor="sg-status">
            State
            <select id="sg-status" name="status" defaultValue="">
              <option value="">Any</option>
            </select>
          </label>
          <Button>Apply</Button>
        </form>
        <ButtonLink variant="primary" to="/_styleguide">
          New project
        </ButtonLink>
      </Toolbar>
      <Pagination url="/_styleguide?page=2" page={2} pageSize={20} total={75} />
      <EmptyState
        title="No proposals here yet."
        action={<ButtonLink to="/_styleguide">Find a project</ButtonLink>}
      >
        Find a project to send a proposal to.
      </EmptyState>
    </section>
  )
}

function Notices() {
  return (
    <section className="ui-section" aria-labelledby="sg-notice">
      <h2 id="sg-notice">Notice</h2>
      <Notice kind="success">Your proposal is sent.</Notice>
      <Notice kind="info" title="Heads up">
        Mark as completed appears once every installment is approved.
      </Notice>
      <Notice kind="warning">The file is large; it may take a while.</Notice>
      <Notice kind="error">The project is in progress; it cannot be deleted.</Notice>
    </section>
  )
}
