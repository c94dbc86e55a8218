// Appeals (обращения, issue 14): the feature's public face; other folders import it only from here (ADR 017).
export { MyAppeals } from './my-appeals.tsx';
export { AdminAppeals } from './admin-appeals.tsx';
export { appealsPath } from './format.ts';
