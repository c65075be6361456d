import { BarChart } from '~/components/ui/bar-chart'
import { ConversationItem, ConversationList, MessageBubble, MessageLog } from '~/components/ui/conversation'
import { DataTable } from '~/components/ui/data-table'

// The style guide's (/_styleguide) samples of the chat, the table and the chart.

export function Conversation() {
  return (
    <section className="ui-section" aria-labelledby="sg-conversation">
      <h2 id="sg-conversation">ConversationList · MessageLog · MessageBubble</h2>
      <ConversationList label="Chats">
        <ConversationItem
          href="/_styleguide"
          name="Fred Freelancer"
          context="Footbridge calculations"
          preview="Here are the load cases."
          time="5 minutes ago"
          unread={2}
          unreadLabel="2 unread messages"
        />
        <ConversationItem
          href="/_styleguide"
          name="Clara Client"
          context="Garden wall survey"
          preview="You: Thanks, see you Monday."
          time="2 days ago"
          unread={0}
          unreadLabel=""
        />
      </ConversationList>
      <MessageLog label="Conversation">
        <MessageBubble side="system">Proposal accepted: the contract has started.</MessageBubble>
        <MessageBubble side="theirs" author="Fred Freelancer" footer="10:02">
          Could you send the survey of the abutments?
        </MessageBubble>
        <MessageBubble side="mine" author="You" footer="10:05 · Read">
          Yes, here it is.
        </MessageBubble>
      </MessageLog>
    </section>
  )
}

export function Table() {
  return (
    <section className="ui-section" aria-labelledby="sg-table">
      <h2 id="sg-table">DataTable</h2>
      <DataTable
        caption="Movements"
        columns={[
          { label: 'Date' },
          { label: 'Description' },
          { label: 'Amount', numeric: true },
          { label: 'Balance', numeric: true },
        ]}
        rows={[
          { key: 1, cells: ['5 Mar 2026', 'Payment received and held', '+€1,236.00', '€1,236.00'] },
          { key: 2, cells: ['9 Mar 2026', 'Released to the freelancer', '-€1,236.00', '€0.00'] },
        ]}
      />
    </section>
  )
}

export function Chart() {
  return (
    <section className="ui-section" aria-labelledby="sg-chart">
      <h2 id="sg-chart">BarChart</h2>
      <BarChart
        caption="Money held and released per week"
        categoryLabel="Week"
        figuresLabel="Show the figures"
        categories={['2 Mar', '9 Mar', '16 Mar', '23 Mar']}
        series={[
          { name: 'Held at the end of the week', values: [120000, 180000, 95000, 140000] },
          { name: 'Released in the week', values: [0, 60000, 110000, 40000] },
        ]}
        format={(v) => `€${(v / 100).toFixed(2)}`}
      />
    </section>
  )
}
