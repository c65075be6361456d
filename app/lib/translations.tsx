// The translation hook every component uses (issue 38 replaces i18next's browser runtime behind it).
export { useTranslation } from 'react-i18next'
