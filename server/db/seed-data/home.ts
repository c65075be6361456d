import type { HomeBox, PartnerLogo, ServiceHighlight } from './types.ts'

/** "How it works" boxes on the home page, in order. Icon names follow the lucide set. */
export const homeBoxes: HomeBox[] = [
  {
    slug: 'post-your-project',
    icon: 'clipboard-list',
    title: {
      en: 'Post your project',
      es: 'Publica tu proyecto',
      de: 'Projekt einstellen',
      it: 'Pubblica il tuo progetto',
      ru: 'Разместите проект',
    },
    body: {
      en: 'Describe the scope, deliverables, budget and timeline, and say whether any of the work is on site. It only takes a few minutes.',
      es: 'Describe el alcance, los entregables, el presupuesto y el plazo, e indica si hay trabajo en obra. Solo te llevará unos minutos.',
      de: 'Beschreiben Sie Leistungsumfang, Ergebnisse, Budget und Zeitrahmen und ob Arbeiten vor Ort nötig sind. Das dauert nur wenige Minuten.',
      it: 'Descrivi ambito, elaborati, budget e tempi, e indica se è previsto lavoro in cantiere. Bastano pochi minuti.',
      ru: 'Опишите объём работ, ожидаемый результат, бюджет и сроки и укажите, нужны ли выезды на объект. Это займёт всего несколько минут.',
    },
  },
  {
    slug: 'compare-proposals',
    icon: 'users',
    title: {
      en: 'Compare proposals',
      es: 'Compara propuestas',
      de: 'Angebote vergleichen',
      it: 'Confronta le proposte',
      ru: 'Сравните предложения',
    },
    body: {
      en: 'Engineers send their price, schedule and approach. Check portfolios, reviews and verification, and chat before you decide.',
      es: 'Los ingenieros envían su precio, su plazo y su enfoque. Revisa portafolios, valoraciones y verificación, y chatea con ellos antes de decidir.',
      de: 'Ingenieure senden Preis, Zeitplan und Vorgehen. Prüfen Sie Portfolios, Bewertungen und Verifizierung und klären Sie Fragen im Chat, bevor Sie sich entscheiden.',
      it: 'Gli ingegneri inviano prezzo, tempi e approccio. Controlla portfolio, recensioni e verifica, e chiarisci i dubbi in chat prima di decidere.',
      ru: 'Инженеры присылают цену, сроки и подход к работе. Изучите портфолио, отзывы и статус проверки и обсудите детали в чате, прежде чем решить.',
    },
  },
  {
    slug: 'agree-installments',
    icon: 'file-signature',
    title: {
      en: 'Agree the installments',
      es: 'Acuerda los pagos parciales',
      de: 'Raten vereinbaren',
      it: 'Concorda le rate',
      ru: 'Согласуйте этапы',
    },
    body: {
      en: 'Accepting a proposal creates a contract split into installments tied to deliverables, such as concept, calculations and final drawings.',
      es: 'Al aceptar una propuesta se crea un contrato dividido en pagos parciales ligados a entregables, como el anteproyecto, los cálculos y los planos definitivos.',
      de: 'Mit der Annahme eines Angebots entsteht ein Vertrag, aufgeteilt in Raten mit klaren Teilleistungen – etwa Vorentwurf, Berechnung und Ausführungspläne.',
      it: 'Accettando una proposta nasce un contratto suddiviso in rate legate agli elaborati, come concept, calcoli ed esecutivi.',
      ru: 'После принятия предложения заключается контракт, разбитый на этапы с понятными результатами: концепция, расчёты, рабочие чертежи.',
    },
  },
  {
    slug: 'pay-on-approval',
    icon: 'shield-check',
    title: {
      en: 'Pay on approval',
      es: 'Paga al aprobar',
      de: 'Bezahlen nach Freigabe',
      it: "Paga all'approvazione",
      ru: 'Оплата после приёмки',
    },
    body: {
      en: 'You pay each installment up front and Workneer holds it until you approve the deliverable. Only then is it released to the freelancer.',
      es: 'Abonas cada pago parcial por adelantado y Workneer lo retiene hasta que apruebas el entregable. Solo entonces se libera al profesional.',
      de: 'Sie zahlen jede Rate im Voraus ein, und Workneer verwahrt sie, bis Sie die Teilleistung freigeben. Erst dann erhält der Freelancer das Geld.',
      it: 'Versi ogni rata in anticipo e Workneer la trattiene finché non approvi la consegna. Solo allora viene accreditata al professionista.',
      ru: 'Вы оплачиваете каждый этап заранее, а Workneer удерживает деньги, пока вы не примете результат. Только тогда они переходят исполнителю.',
    },
  },
]

/** Service highlights on the home page, one per catalogue area. */
export const services: ServiceHighlight[] = [
  {
    slug: 'feasibility-and-permits',
    areaSlug: 'planning-strategy',
    title: {
      en: 'Feasibility and permits',
      es: 'Viabilidad y licencias',
      de: 'Machbarkeit und Genehmigung',
      it: 'Fattibilità e autorizzazioni',
      ru: 'ТЭО и разрешения',
    },
    body: {
      en: 'From site appraisal to the permit application: land-use checks, feasibility studies and approval drawings by planners who know the local rules.',
      es: 'Del análisis del solar a la solicitud de licencia: comprobaciones urbanísticas, estudios de viabilidad y documentación para la tramitación, de la mano de técnicos que conocen la normativa local.',
      de: 'Von der Grundstücksanalyse bis zum Bauantrag: planungsrechtliche Prüfung, Machbarkeitsstudien und Genehmigungsplanung von Fachleuten, die die örtlichen Vorschriften kennen.',
      it: "Dall'analisi del lotto alla pratica edilizia: verifiche urbanistiche, studi di fattibilità ed elaborati autorizzativi, affidati a professionisti che conoscono le norme locali.",
      ru: 'От анализа участка до подачи документов на разрешение: проверка градостроительных регламентов, ТЭО и разрешительная документация от специалистов, знающих местные нормы.',
    },
  },
  {
    slug: 'architecture-and-bim',
    areaSlug: 'architecture-design',
    title: {
      en: 'Architecture and BIM',
      es: 'Arquitectura y BIM',
      de: 'Architektur und BIM',
      it: 'Architettura e BIM',
      ru: 'Архитектура и BIM',
    },
    body: {
      en: 'Concept designs, construction drawings and coordinated BIM models in Revit or Archicad, delivered as native files and IFC.',
      es: 'Anteproyectos, planos de ejecución y modelos BIM coordinados en Revit o Archicad, entregados en archivos nativos e IFC.',
      de: 'Entwürfe, Ausführungspläne und koordinierte BIM-Modelle in Revit oder Archicad, geliefert als native Dateien und IFC.',
      it: 'Concept, elaborati esecutivi e modelli BIM coordinati in Revit o Archicad, consegnati in formato nativo e IFC.',
      ru: 'Эскизные проекты, рабочая документация и скоординированные BIM-модели в Revit или Archicad — в исходных файлах и IFC.',
    },
  },
  {
    slug: 'structural-and-mep-engineering',
    areaSlug: 'engineering',
    title: {
      en: 'Structural and MEP engineering',
      es: 'Estructuras e instalaciones',
      de: 'Tragwerksplanung und TGA',
      it: 'Strutture e impianti',
      ru: 'Конструкции и инженерные системы',
    },
    body: {
      en: 'Calculations, drawings and specifications for structures, HVAC, plumbing and electrical systems, to the codes that apply on your site.',
      es: 'Cálculos, planos y pliegos de estructuras, climatización, fontanería y electricidad, conforme a la normativa aplicable en tu obra.',
      de: 'Berechnungen, Pläne und Leistungsbeschreibungen für Tragwerk, Heizung, Lüftung, Sanitär und Elektro – nach den Normen, die an Ihrem Bauort gelten.',
      it: 'Calcoli, tavole e specifiche per strutture, climatizzazione, impianti idrico-sanitari ed elettrici, secondo le norme in vigore nel luogo del cantiere.',
      ru: 'Расчёты, чертежи и спецификации по конструкциям, ОВиК, водопроводу и канализации и электроснабжению — по нормам, действующим в месте строительства.',
    },
  },
  {
    slug: 'civil-works-and-utilities',
    areaSlug: 'environmental',
    title: {
      en: 'Civil works and utilities',
      es: 'Obra civil y redes',
      de: 'Tiefbau und Versorgungsnetze',
      it: 'Opere civili e sottoservizi',
      ru: 'Инфраструктура и сети',
    },
    body: {
      en: 'Grading, roads, stormwater, water and sewer networks and utility coordination, backed by hydraulic models.',
      es: 'Explanaciones, viales, pluviales, redes de abastecimiento y saneamiento y coordinación de servicios afectados, respaldados por modelos hidráulicos.',
      de: 'Geländemodellierung, Straßen, Regenwasser, Trink- und Abwassernetze sowie Leitungskoordination – abgesichert durch hydraulische Berechnungen.',
      it: 'Movimenti terra, strade, acque meteoriche, reti idriche e fognarie e coordinamento dei sottoservizi, supportati da modelli idraulici.',
      ru: 'Вертикальная планировка, дороги, ливневая канализация, сети водоснабжения и водоотведения и согласование инженерных сетей — с гидравлическими расчётами.',
    },
  },
  {
    slug: 'cost-estimates-and-quantities',
    areaSlug: 'economics',
    title: {
      en: 'Cost estimates and quantities',
      es: 'Costes y mediciones',
      de: 'Kosten und Mengen',
      it: 'Costi e computi',
      ru: 'Сметы и объёмы',
    },
    body: {
      en: 'Budgets, bills of quantities and tender documents that let you compare bids with confidence.',
      es: 'Presupuestos, mediciones y pliegos de licitación para comparar ofertas con seguridad.',
      de: 'Kostenschätzungen, Leistungsverzeichnisse und Ausschreibungsunterlagen, mit denen Sie Angebote sicher vergleichen können.',
      it: 'Stime dei costi, computi metrici estimativi e documentazione di gara per confrontare le offerte con sicurezza.',
      ru: 'Сметы, ведомости объёмов работ и тендерная документация, которые позволяют уверенно сравнивать предложения подрядчиков.',
    },
  },
  {
    slug: 'site-and-project-management',
    areaSlug: 'project-construction-management',
    title: {
      en: 'Site and project management',
      es: 'Gestión de proyecto y obra',
      de: 'Projekt- und Baumanagement',
      it: 'Gestione di progetto e cantiere',
      ru: 'Управление проектом и стройкой',
    },
    body: {
      en: 'Schedules, site supervision, progress reports and contract administration, paid in installments that follow the works.',
      es: 'Planificación, dirección de obra, informes de avance y administración de contratos, con pagos parciales que siguen el avance de los trabajos.',
      de: 'Terminpläne, Bauüberwachung, Baustellenberichte und Vertragsmanagement, bezahlt in Raten, die dem Baufortschritt folgen.',
      it: "Cronoprogrammi, direzione lavori, report di avanzamento e gestione del contratto, con rate che seguono l'andamento dei lavori.",
      ru: 'Графики, технический надзор, отчёты о ходе работ и администрирование договоров с оплатой этапами по мере выполнения работ.',
    },
  },
]

/** Fictional partner firms; their SVG wordmarks are served from public/images/logos/. */
export const partnerLogos: PartnerLogo[] = [
  { name: 'Brightspan Structures', image: '/images/logos/brightspan-structures.svg' },
  { name: 'Halvard Civil', image: '/images/logos/halvard-civil.svg' },
  { name: 'Riverline Utilities', image: '/images/logos/riverline-utilities.svg' },
  { name: 'Tessera Build Group', image: '/images/logos/tessera-build.svg' },
  { name: 'Corvo Ingegneria', image: '/images/logos/corvo-ingegneria.svg' },
]
