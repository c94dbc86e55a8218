/**
 * Every way a module keeps uploaded files, each declared by its module's manifest (ADR 041, ADR 047).
 * file-uses.test.ts fails for a column named for files that none declares, file-uses.db.test.ts for any column
 * found holding a placed file.
 */
export { FILE_USES } from './modules/index.ts';
