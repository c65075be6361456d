import type { ExperienceLevel, Industry } from './types.ts'

// ISO 3166-1 alpha-2: all 249 officially assigned codes. Display names come from
// Intl.DisplayNames({ type: 'region' }) in the visitor's language.
export const countries: string[] = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ
BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ
DE DJ DK DM DO DZ
EC EE EG EH ER ES ET
FI FJ FK FM FO FR
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY
HK HM HN HR HT HU
ID IE IL IM IN IO IQ IR IS IT
JE JM JO JP
KE KG KH KI KM KN KP KR KW KY KZ
LA LB LC LI LK LR LS LT LU LV LY
MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ
NA NC NE NF NG NI NL NO NP NR NU NZ
OM
PA PE PF PG PH PK PL PM PN PR PS PT PW PY
QA
RE RO RS RU RW
SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ
TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ
UA UG UM US UY UZ
VA VC VE VG VI VN VU
WF WS
YE YT
ZA ZM ZW
`
  .trim()
  .split(/\s+/)

// ISO 639-1 codes of widely spoken languages (profile "languages I work in").
// Display names come from Intl.DisplayNames({ type: 'language' }).
export const languages: string[] = [
  'en',
  'es',
  'de',
  'it',
  'ru',
  'fr',
  'pt',
  'ar',
  'zh',
  'hi',
  'bn',
  'ur',
  'pa',
  'ja',
  'ko',
  'tr',
  'fa',
  'pl',
  'uk',
  'nl',
  'sv',
  'no',
  'da',
  'fi',
  'cs',
  'sk',
  'hu',
  'ro',
  'el',
  'bg',
  'hr',
  'sr',
  'he',
  'id',
  'ms',
  'th',
  'vi',
  'tl',
  'sw',
  'ta',
  'kk',
  'uz',
  'az',
  'ka',
]

export const industries: Industry[] = [
  {
    slug: 'residential-construction',
    name: {
      en: 'Residential construction',
      es: 'Construcción residencial',
      de: 'Wohnungsbau',
      it: 'Edilizia residenziale',
      ru: 'Жилищное строительство',
    },
  },
  {
    slug: 'commercial-real-estate',
    name: {
      en: 'Commercial real estate',
      es: 'Inmobiliario comercial',
      de: 'Gewerbeimmobilien',
      it: 'Immobiliare commerciale',
      ru: 'Коммерческая недвижимость',
    },
  },
  {
    slug: 'property-development',
    name: {
      en: 'Property development',
      es: 'Promoción inmobiliaria',
      de: 'Projektentwicklung',
      it: 'Sviluppo immobiliare',
      ru: 'Девелопмент',
    },
  },
  {
    slug: 'transport-infrastructure',
    name: {
      en: 'Transport infrastructure',
      es: 'Infraestructuras de transporte',
      de: 'Verkehrsinfrastruktur',
      it: 'Infrastrutture di trasporto',
      ru: 'Транспортная инфраструктура',
    },
  },
  {
    slug: 'energy-power',
    name: {
      en: 'Energy and power generation',
      es: 'Energía y generación eléctrica',
      de: 'Energiewirtschaft',
      it: 'Energia e produzione elettrica',
      ru: 'Энергетика',
    },
  },
  {
    slug: 'renewable-energy',
    name: {
      en: 'Renewable energy',
      es: 'Energías renovables',
      de: 'Erneuerbare Energien',
      it: 'Energie rinnovabili',
      ru: 'Возобновляемая энергетика',
    },
  },
  {
    slug: 'oil-gas',
    name: {
      en: 'Oil and gas',
      es: 'Petróleo y gas',
      de: 'Öl und Gas',
      it: 'Petrolio e gas',
      ru: 'Нефтегазовая отрасль',
    },
  },
  {
    slug: 'water-utilities',
    name: {
      en: 'Water utilities',
      es: 'Ciclo integral del agua',
      de: 'Wasserwirtschaft',
      it: 'Servizio idrico',
      ru: 'Водное хозяйство',
    },
  },
  {
    slug: 'mining',
    name: {
      en: 'Mining',
      es: 'Minería',
      de: 'Bergbau',
      it: 'Settore minerario',
      ru: 'Горнодобывающая промышленность',
    },
  },
  {
    slug: 'manufacturing',
    name: {
      en: 'Manufacturing and industrial plants',
      es: 'Industria y plantas de producción',
      de: 'Industrie und Produktionsanlagen',
      it: 'Industria manifatturiera e impianti produttivi',
      ru: 'Промышленность и производство',
    },
  },
  {
    slug: 'public-sector',
    name: {
      en: 'Public sector',
      es: 'Sector público',
      de: 'Öffentliche Hand',
      it: 'Pubblica amministrazione',
      ru: 'Государственный сектор',
    },
  },
  {
    slug: 'healthcare-facilities',
    name: {
      en: 'Healthcare facilities',
      es: 'Edificios sanitarios',
      de: 'Gesundheitsbauten',
      it: 'Edilizia sanitaria',
      ru: 'Объекты здравоохранения',
    },
  },
  {
    slug: 'education-facilities',
    name: {
      en: 'Education facilities',
      es: 'Edificios educativos',
      de: 'Bildungsbauten',
      it: 'Edilizia scolastica e universitaria',
      ru: 'Объекты образования',
    },
  },
  {
    slug: 'hospitality-leisure',
    name: {
      en: 'Hospitality and leisure',
      es: 'Hoteles y ocio',
      de: 'Hotellerie und Freizeit',
      it: 'Alberghiero e tempo libero',
      ru: 'Гостиницы и досуг',
    },
  },
  {
    slug: 'retail',
    name: {
      en: 'Retail',
      es: 'Comercio minorista',
      de: 'Einzelhandel',
      it: 'Commercio al dettaglio',
      ru: 'Розничная торговля',
    },
  },
  {
    slug: 'logistics-warehousing',
    name: {
      en: 'Logistics and warehousing',
      es: 'Logística y almacenes',
      de: 'Logistikimmobilien',
      it: 'Logistica e magazzini',
      ru: 'Логистика и склады',
    },
  },
  {
    slug: 'telecommunications',
    name: {
      en: 'Telecommunications',
      es: 'Telecomunicaciones',
      de: 'Telekommunikation',
      it: 'Telecomunicazioni',
      ru: 'Телекоммуникации',
    },
  },
  {
    slug: 'data-centres',
    name: {
      en: 'Data centres',
      es: 'Centros de datos',
      de: 'Rechenzentren',
      it: 'Data center',
      ru: 'Центры обработки данных',
    },
  },
  {
    slug: 'agriculture',
    name: {
      en: 'Agriculture and agri-food',
      es: 'Agricultura y agroalimentación',
      de: 'Agrar- und Ernährungswirtschaft',
      it: 'Agricoltura e agroalimentare',
      ru: 'Сельское хозяйство и АПК',
    },
  },
  {
    slug: 'heritage-restoration',
    name: {
      en: 'Heritage and restoration',
      es: 'Patrimonio y rehabilitación',
      de: 'Denkmalpflege und Sanierung',
      it: 'Restauro e beni culturali',
      ru: 'Реставрация и культурное наследие',
    },
  },
  {
    slug: 'facility-management',
    name: {
      en: 'Facility management',
      es: 'Mantenimiento y gestión de edificios',
      de: 'Facility Management',
      it: 'Facility management e gestione immobiliare',
      ru: 'Эксплуатация зданий',
    },
  },
  {
    slug: 'aec-firms',
    name: {
      en: 'Architecture and engineering firms',
      es: 'Estudios de arquitectura e ingenierías',
      de: 'Architektur- und Ingenieurbüros',
      it: 'Studi di architettura e ingegneria',
      ru: 'Архитектурные и инженерные бюро',
    },
  },
]

export const experienceLevels: ExperienceLevel[] = [
  {
    slug: 'entry',
    name: { en: 'Entry level', es: 'Nivel inicial', de: 'Einsteiger', it: 'Junior', ru: 'Начальный уровень' },
    description: {
      en: 'Early-career professionals for well-defined tasks such as drafting, modelling or quantity take-offs, at a lower rate.',
      es: 'Profesionales que empiezan su carrera, para tareas bien definidas como delineación, modelado o mediciones, con una tarifa más baja.',
      de: 'Berufseinsteiger für klar umrissene Aufgaben wie Zeichnen, Modellieren oder Mengenermittlung – zu einem günstigeren Satz.',
      it: 'Professionisti a inizio carriera per attività ben definite come disegno, modellazione o computi, con una tariffa più contenuta.',
      ru: 'Специалисты в начале карьеры для чётко поставленных задач — чертежей, моделирования, подсчёта объёмов — по более низкой ставке.',
    },
  },
  {
    slug: 'intermediate',
    name: {
      en: 'Intermediate',
      es: 'Intermedio',
      de: 'Fortgeschritten',
      it: 'Intermedio',
      ru: 'Средний уровень',
    },
    description: {
      en: 'Experienced professionals who can take a work package from brief to deliverable with little supervision.',
      es: 'Profesionales con experiencia, capaces de llevar un paquete de trabajo del encargo a la entrega con poca supervisión.',
      de: 'Erfahrene Fachleute, die ein Arbeitspaket weitgehend selbstständig vom Auftrag bis zur Abgabe bearbeiten.',
      it: "Professionisti con esperienza, in grado di portare un pacchetto di lavoro dall'incarico alla consegna con poca supervisione.",
      ru: 'Опытные специалисты, которые почти самостоятельно ведут пакет работ от технического задания до сдачи результата.',
    },
  },
  {
    slug: 'expert',
    name: { en: 'Expert', es: 'Experto', de: 'Experte', it: 'Esperto', ru: 'Эксперт' },
    description: {
      en: 'Senior specialists for complex, high-risk or regulated work, including design responsibility and independent review.',
      es: 'Especialistas sénior para trabajos complejos, de alto riesgo o sujetos a normativa, incluida la responsabilidad de proyecto y la revisión independiente.',
      de: 'Erfahrene Spezialisten für komplexe, risikoreiche oder genehmigungspflichtige Aufgaben, einschließlich Planungsverantwortung und unabhängiger Prüfung.',
      it: 'Specialisti senior per lavori complessi, ad alto rischio o soggetti a norme specifiche, compresa la responsabilità progettuale e la verifica indipendente.',
      ru: 'Ведущие специалисты для сложных, ответственных и регулируемых задач, включая ответственность за проектные решения и независимую проверку.',
    },
  },
]
