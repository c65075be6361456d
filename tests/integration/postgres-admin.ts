// The PostgreSQL server the tests create their databases on (and the run's template, database-templates.ts).
export const postgresAdminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
