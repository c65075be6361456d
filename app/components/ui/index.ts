// The work screens' design system: screens import from here and never style their own chips or cards.
export { Chip, StatusChip } from './status-chip'
export { stateTones, machineStates, toneOf, type Machine, type Tone } from './tones'
export { Card } from './card'
export { Button, ButtonLink, ButtonGroup, ActionForm, buttonClass, type ButtonVariant } from './button'
export { DefinitionList } from './definition-list'
export { EmptyState } from './empty-state'
export { Timeline, type TimelineEvent } from './timeline'
export { Stepper, type Step } from './stepper'
export { Person, Rating } from './person'
export { TagInput, type TagOption } from './tag-input'
export { Toolbar } from './toolbar'
export { Pagination } from './pagination'
export { Notice, type NoticeKind } from './notice'
export { FilterSelect } from './filter-select'
export {
  ConversationItem,
  ConversationList,
  MessageBubble,
  MessageLog,
  type BubbleSide,
} from './conversation'
export { SectionNav, type SectionLink } from './section-nav'
export { Progress } from './progress'
export { DataTable, type DataColumn, type DataRow } from './data-table'
export { TabNav, type TabLink } from './tab-nav'
export { BarChart, type ChartSeries } from './bar-chart'
